import { type } from 'arktype';
import { defineArea, supportOnly } from './define.ts';

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
 * The local mailbox: where mail goes when SMTP_URL is unset (development), so an invitation or reset
 * link can be reached without a mail server. Support staff only: the messages hold sign-in links.
 */
export const mailbox = defineArea({
  list: {
    input: type({}),
    output: type({ active: 'boolean', messages: MailboxMessage.array() }),
    access: supportOnly,
    summary:
      'The messages the local mailbox caught, newest first (active false, and none, when mail goes out through SMTP).',
  },
});
