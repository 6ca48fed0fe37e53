export { createLocalTexts, type LocalText, type LocalTexts } from './local-texts.ts';
export { type CaughtMail, type MailCatcher, startMailCatcher } from './mail-catcher.ts';
export {
  createMailer,
  createMemoryMailer,
  createSmtpMailer,
  localMailboxOf,
  type MailAttachment,
  type Mailer,
  type MailMessage,
  type MemoryMailer,
  type StoredMail,
} from './mailer.ts';
