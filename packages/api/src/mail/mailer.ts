import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';

export type MailMessage = { to: string; subject: string; text: string; html?: string };

/** Sends one email; rejects when the mail server refuses it. */
export type Mailer = { send(message: MailMessage): Promise<void> };

/** SMTP through nodemailer (`smtp://user:pass@host:587`, or `smtps://` for TLS from the first byte). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    send: async ({ to, subject, text, html }) => {
      await transport.sendMail({ from, to, subject, text, ...(html ? { html } : {}) });
    },
  };
}

/** A development mailer: remembers the last messages and logs only who and what about. */
export type MemoryMailer = Mailer & { readonly messages: MailMessage[] };

const KEEP = 50;

/**
 * For development without SMTP_URL: logs "mail to <address> (subject)" — never the body, which holds
 * sign-in links — and keeps the last {@link KEEP} messages in memory for whoever runs the process.
 */
export function createMemoryMailer(logger?: Logger): MemoryMailer {
  const messages: MailMessage[] = [];
  return {
    messages,
    send: async (message) => {
      messages.push(message);
      if (messages.length > KEEP) messages.splice(0, messages.length - KEEP);
      logger?.info(`mail to ${message.to} (${message.subject})`);
    },
  };
}

/** The mailer the configuration asks for: SMTP when SMTP_URL is set, else the logging memory mailer. */
export function createMailer(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl) return createSmtpMailer(config.smtpUrl, config.mailFrom);
  if (config.production) logger.warn('SMTP_URL is not set: emails (password reset, invitations) are not sent');
  return createMemoryMailer(logger);
}
