import nodemailer from 'nodemailer';
import type { Config } from '../config/config.ts';
import type { Logger } from '../log/logger.ts';

/** A file sent with a message (a report's CSV): its name, MIME type and content (text as UTF-8). */
export type MailAttachment = { filename: string; contentType: string; content: string | Uint8Array };

/**
 * `messageId` (`<id@host>`): the Message-ID header to use instead of one nodemailer makes up.
 * `attachments`: files sent with it, after the text and HTML.
 */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  messageId?: string;
  attachments?: MailAttachment[];
};

/** Sends one email; rejects when the mail server refuses it. */
export type Mailer = { send(message: MailMessage): Promise<void> };

/** SMTP through nodemailer (`smtp://user:pass@host:587`, or `smtps://` for TLS from the first byte). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    send: async ({ to, subject, text, html, messageId, attachments }) => {
      await transport.sendMail({
        from,
        to,
        subject,
        text,
        ...(html ? { html } : {}),
        ...(messageId ? { messageId } : {}),
        ...(attachments?.length
          ? {
              attachments: attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: typeof a.content === 'string' ? a.content : Buffer.from(a.content),
                // Base64 carries the bytes as they are (a CSV's CRLF line ends too).
                contentTransferEncoding: 'base64' as const,
              })),
            }
          : {}),
      });
    },
  };
}

/** A message the local mailbox holds: what was sent, an id and when. */
export type StoredMail = MailMessage & { id: string; sentAt: number };

/**
 * The local mailbox (development, or wherever SMTP_URL is unset): keeps the last {@link KEEP} messages
 * in this process's memory, newest last, for support staff to read on the console's Mailbox page
 * (`mailbox.list`), and logs only who and what about — never the body, which holds sign-in links.
 * Memory rather than the database: these are throw-away development messages holding live sign-in
 * links, which should not outlive the process or land in backups (docs/decisions/operations.md).
 */
export type MemoryMailer = Mailer & { readonly messages: StoredMail[]; readonly localMailbox: true };

const KEEP = 200;

export function createMemoryMailer(logger?: Logger, clock: () => number = Date.now): MemoryMailer {
  const messages: StoredMail[] = [];
  return {
    messages,
    localMailbox: true,
    send: async (message) => {
      messages.push({ ...message, id: Bun.randomUUIDv7(), sentAt: clock() });
      if (messages.length > KEEP) messages.splice(0, messages.length - KEEP);
      logger?.info(`mail to ${message.to} (${message.subject}): in the local mailbox`);
    },
  };
}

/** The local mailbox behind a mailer, if it is one. */
export const localMailboxOf = (mailer: Mailer): MemoryMailer | undefined =>
  (mailer as Partial<MemoryMailer>).localMailbox === true ? (mailer as MemoryMailer) : undefined;

/**
 * The mailer the configuration asks for: SMTP when SMTP_URL is set, else (outside production only) the
 * local mailbox, which support staff read in the console.
 */
export function createMailer(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl) return createSmtpMailer(config.smtpUrl, config.mailFrom);
  // loadConfig refuses production without SMTP_URL; a hand-made configuration gets no mailbox either.
  if (config.production) throw new Error('SMTP_URL: must be set in production');
  return createMemoryMailer(logger);
}
