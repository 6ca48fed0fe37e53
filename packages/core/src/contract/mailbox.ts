import { type } from 'arktype';
import { defineArea, supportOnly } from './define.ts';
import { withoutInput } from './method-builders.ts';

/** A file sent with a message (a monthly report's CSV): its bytes as base64, to download. */
export const MailboxAttachment = type({ filename: 'string', contentType: 'string', size: 'number', base64: 'string' });
export type MailboxAttachment = typeof MailboxAttachment.infer;

/** One message the local mailbox caught, with the links in its text (reset, invitation…) and its files. */
export const MailboxMessage = type({
  id: 'string',
  to: 'string',
  subject: 'string',
  text: 'string',
  sentAt: 'number',
  links: 'string[]',
  attachments: MailboxAttachment.array(),
});
export type MailboxMessage = typeof MailboxMessage.infer;

/**
 * One SMS or WhatsApp message the local gateway stood in for (its provider has no credentials, outside
 * production): to whom, through which channel and provider, its words (the PIN, a patient's code) and
 * the links in them (the short link).
 */
export const LocalTextMessage = type({
  id: 'string',
  channel: "'sms' | 'whatsapp'",
  provider: 'string',
  to: 'string',
  sender: 'string',
  text: 'string',
  sentAt: 'number',
  links: 'string[]',
});
export type LocalTextMessage = typeof LocalTextMessage.infer;

/**
 * The local mailbox: where mail goes when SMTP_URL is unset (development), so an invitation or reset
 * link can be reached without a mail server. Support staff only: the messages hold sign-in links.
 */
export const mailbox = defineArea({
  list: withoutInput({
    output: type({ active: 'boolean', mail: 'boolean', messages: MailboxMessage.array() }),
    access: supportOnly,
    summary:
      'The emails the local mailbox caught, newest first (mail false, and none, when mail goes out through SMTP). active: the Mailbox is in use at all (emails kept here, or text messages: see listTexts); false in production.',
  }),
  listTexts: withoutInput({
    output: type({ active: 'boolean', messages: LocalTextMessage.array() }),
    access: supportOnly,
    summary:
      'The SMS and WhatsApp messages the local gateway stood in for, newest first (outside production only: in production active is false and there are none).',
  }),
});
