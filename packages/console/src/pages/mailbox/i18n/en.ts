/* The mailbox page's words (ICU MessageFormat): see src/i18n/index.ts, `areaCatalog`. */
export const en = {
  'mailbox.title': 'Mailbox',
  'mailbox.lead':
    'Messages the server would have sent but has no provider for (no SMTP_URL; no SMS or WhatsApp credentials), kept here newest first until it restarts. Never in production.',
  'mailbox.emails': 'Emails',
  'mailbox.refresh': 'Refresh',
  'mailbox.emailsViaSmtp': 'Emails go out through SMTP: none are kept here.',
  'mailbox.noEmails': 'No emails yet.',
  'mailbox.email.label': '{subject} to {to}',
  'mailbox.email.to': 'To {to} · {sentAt}',
  'mailbox.email.attached': 'Files attached',
  'mailbox.email.text': 'Message text',
  'mailbox.links': 'Links in this message',
  'mailbox.texts': 'Text messages',
  'mailbox.refreshTexts': 'Refresh texts',
  'mailbox.textsInactive': 'This server keeps no text messages (it does in development only).',
  'mailbox.noTexts': 'No text messages yet. SMS and WhatsApp messages whose provider has no credentials show here.',
  'mailbox.text.label': '{channel, select, sms {SMS} other {WhatsApp message}} to {to}',
  'mailbox.text.meta': 'From {sender} · {sentAt} · not sent: {provider} has no credentials',
} as const;
