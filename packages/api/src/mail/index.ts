export { type CaughtMail, type MailCatcher, startMailCatcher } from './mail-catcher.ts';
export { createMailer, createMemoryMailer, createSmtpMailer, type MailMessage, type Mailer, type MemoryMailer } from './mailer.ts';
