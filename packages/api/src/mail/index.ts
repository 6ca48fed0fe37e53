export { type CaughtMail, type MailCatcher, startMailCatcher } from './mail-catcher.ts';
export {
  createMailer,
  createMemoryMailer,
  createSmtpMailer,
  type Mailer,
  type MailMessage,
  type MemoryMailer,
} from './mailer.ts';
