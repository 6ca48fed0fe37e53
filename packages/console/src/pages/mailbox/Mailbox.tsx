import { formatFileSize, type MailboxMessage } from '@medlocker/core';
import { useRpcQuery } from '../../api/queries.ts';
import { Page } from '../../ui/Page.tsx';
import { t } from './i18n/index.ts';
import { MailboxSection, MessageLinks } from './mailbox-parts.tsx';
import { sentAt } from './sent-at.ts';
import { TextMessages } from './TextMessages.tsx';

function Message({ message }: { message: MailboxMessage }) {
  return (
    <article
      className="card mailbox__message"
      aria-label={t('mailbox.email.label', { subject: message.subject, to: message.to })}
    >
      <header>
        <h3 className="mailbox__subject">{message.subject}</h3>
        <p className="mailbox__meta">{t('mailbox.email.to', { to: message.to, sentAt: sentAt(message.sentAt) })}</p>
      </header>
      <MessageLinks links={message.links} />
      {message.attachments.length > 0 && (
        <ul className="mailbox__links" aria-label={t('mailbox.email.attached')}>
          {message.attachments.map((a) => (
            <li key={a.filename}>
              <a href={`data:${a.contentType};base64,${a.base64}`} download={a.filename}>
                {a.filename}
              </a>{' '}
              ({formatFileSize(a.size)})
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>{t('mailbox.email.text')}</summary>
        <pre className="mailbox__text" style={{ whiteSpace: 'pre-wrap' }}>
          {message.text}
        </pre>
      </details>
    </article>
  );
}

/**
 * `/mailbox`: the local mailbox (like Mailpit) where mail goes when the server has no SMTP_URL, so an
 * invitation or a password reset link can be followed on a development machine, and the text messages
 * the local gateway stood in for (TextMessages.tsx). Support staff only.
 */
export function Mailbox() {
  const query = useRpcQuery(['mailbox', 'list'], {});
  return (
    <Page title={t('mailbox.title')} lead={t('mailbox.lead')}>
      <MailboxSection
        id="mailbox-emails"
        title={t('mailbox.emails')}
        refreshLabel={t('mailbox.refresh')}
        query={query}
        isOn={(data) => data.mail}
        offNote={t('mailbox.emailsViaSmtp')}
        emptyText={t('mailbox.noEmails')}
      >
        {(m) => <Message message={m} />}
      </MailboxSection>
      <TextMessages />
    </Page>
  );
}
