import { formatFileSize, type MailboxMessage } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Page } from '../../ui/Page.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { MailboxSection, MessageLinks } from './mailbox-parts.tsx';
import { sentAt } from './sent-at.ts';
import { TextMessages } from './TextMessages.tsx';

function Message({ message }: { message: MailboxMessage }) {
  return (
    <article className="card mailbox__message" aria-label={`${message.subject} to ${message.to}`}>
      <header>
        <h3 className="mailbox__subject">{message.subject}</h3>
        <p className="mailbox__meta">
          To {message.to} · {sentAt(message.sentAt)}
        </p>
      </header>
      <MessageLinks links={message.links} />
      {message.attachments.length > 0 && (
        <ul className="mailbox__links" aria-label="Files attached">
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
        <summary>Message text</summary>
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
  const query = useQuery((signal) => rpc('mailbox', 'list', {}, { signal }), ['mailbox', 'list']);
  return (
    <Page
      title="Mailbox"
      lead="Messages the server would have sent but has no provider for (no SMTP_URL; no SMS or WhatsApp credentials), kept here newest first until it restarts. Never in production."
    >
      <MailboxSection id="mailbox-emails" title="Emails" refreshLabel="Refresh" onRefresh={query.reload}>
        <QueryView query={query}>
          {({ mail, messages }) =>
            !mail ? (
              <Banner tone="info">Emails go out through SMTP: none are kept here.</Banner>
            ) : messages.length === 0 ? (
              <p>No emails yet.</p>
            ) : (
              <div className="mailbox">
                {messages.map((m) => (
                  <Message key={m.id} message={m} />
                ))}
              </div>
            )
          }
        </QueryView>
      </MailboxSection>
      <TextMessages />
    </Page>
  );
}
