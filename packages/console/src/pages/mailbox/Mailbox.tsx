import { formatFileSize, type MailboxMessage } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Page } from '../../ui/Page.tsx';
import { QueryView } from '../../ui/QueryView.tsx';

const sentAt = (ms: number) =>
  new Date(ms).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Europe/London' });

function Message({ message }: { message: MailboxMessage }) {
  return (
    <article className="card mailbox__message" aria-label={`${message.subject} to ${message.to}`}>
      <header>
        <h2 className="mailbox__subject">{message.subject}</h2>
        <p className="mailbox__meta">
          To {message.to} · {sentAt(message.sentAt)}
        </p>
      </header>
      {message.links.length > 0 && (
        <ul className="mailbox__links" aria-label="Links in this message">
          {message.links.map((link) => (
            <li key={link}>
              <a href={link}>{link}</a>
            </li>
          ))}
        </ul>
      )}
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
 * invitation or a password reset link can be followed on a development machine. Support staff only.
 */
export function Mailbox() {
  const query = useQuery((signal) => rpc('mailbox', 'list', {}, { signal }), []);
  return (
    <Page
      title="Mailbox"
      lead="Emails the server would have sent: it has no SMTP_URL, so they are kept here (newest first, until it restarts)."
      actions={<Button onClick={query.reload}>Refresh</Button>}
    >
      <QueryView query={query}>
        {({ active, messages }) =>
          !active ? (
            <Banner tone="info">Mail goes out through SMTP: the local mailbox is not in use.</Banner>
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
    </Page>
  );
}
