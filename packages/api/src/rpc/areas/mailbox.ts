import type { LocalTextMessage, MailboxMessage } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import type { LocalText } from '../../mail/local-texts.ts';
import { localMailboxOf, type StoredMail } from '../../mail/mailer.ts';
import { rpcArea } from '../area.ts';

// A link as mail text carries it: up to the first blank, quote or angle bracket.
const LINK = /https?:\/\/[^\s"'<>]+/g;

const toMailboxMessage = (m: StoredMail): MailboxMessage => ({
  id: m.id,
  to: m.to,
  subject: m.subject,
  text: m.text,
  sentAt: m.sentAt,
  links: [...new Set(m.text.match(LINK) ?? [])],
  attachments: (m.attachments ?? []).map((a) => {
    const bytes = typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : Buffer.from(a.content);
    return { filename: a.filename, contentType: a.contentType, size: bytes.length, base64: bytes.toString('base64') };
  }),
});

const toTextMessage = (m: LocalText): LocalTextMessage => ({
  id: m.id,
  channel: m.channel,
  provider: m.provider,
  to: m.to,
  sender: m.sender,
  text: m.text,
  sentAt: m.sentAt,
  links: [...new Set(m.text.match(LINK) ?? [])],
});

/**
 * The texts the local gateway kept. Production has no local gateway (a text without a provider fails)
 * and keeps none; none are shown there even if a hand-made process kept some.
 */
const localTextsOf = (deps: AppDeps) => (deps.config.production ? undefined : deps.localTexts);

/**
 * `POST /api/mailbox/*`: the local mailbox (mail/mailer.ts), when mail does not go out through SMTP, and
 * the texts the local gateway stood in for (mail/local-texts.ts), never in production.
 */
export const mailboxRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'mailbox', {
    list: async () => {
      const mailbox = localMailboxOf(deps.mailer);
      // The console's menu offers the Mailbox while either half of it is in use.
      const active = mailbox !== undefined || localTextsOf(deps) !== undefined;
      if (!mailbox) return { active, mail: false, messages: [] };
      return { active, mail: true, messages: [...mailbox.messages].reverse().map(toMailboxMessage) };
    },
    listTexts: async () => {
      const texts = localTextsOf(deps);
      if (!texts) return { active: false, messages: [] };
      return { active: true, messages: [...texts.messages].reverse().map(toTextMessage) };
    },
  });
