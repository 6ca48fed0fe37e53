import type { LocalTextMessage } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { sentAt } from './sent-at.ts';

const channelNames = { sms: 'SMS', whatsapp: 'WhatsApp message' } as const;

function Text({ message }: { message: LocalTextMessage }) {
  const name = `${channelNames[message.channel]} to ${message.to}`;
  return (
    <article className="card mailbox__message" aria-label={name}>
      <header>
        <h3 className="mailbox__subject">{name}</h3>
        <p className="mailbox__meta">
          From {message.sender} · {sentAt(message.sentAt)} · not sent: {message.provider} has no credentials
        </p>
      </header>
      <p className="mailbox__text" style={{ whiteSpace: 'pre-wrap' }}>
        {message.text}
      </p>
      {message.links.length > 0 && (
        <ul className="mailbox__links" aria-label="Links in this message">
          {message.links.map((link) => (
            <li key={link}>
              <a href={link}>{link}</a>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/**
 * The SMS and WhatsApp messages the local gateway stood in for (their provider has no credentials):
 * a patient's PIN, short link or 6-digit code, so the patient's journeys can be followed on a
 * development machine. Never in production, where the server keeps none.
 */
export function TextMessages() {
  const query = useQuery((signal) => rpc('mailbox', 'listTexts', {}, { signal }), ['mailbox', 'listTexts']);
  return (
    <section className="mailbox__section" aria-labelledby="mailbox-texts">
      <div className="section-head">
        <h2 className="section-title" id="mailbox-texts">
          Text messages
        </h2>
        <div className="page__actions">
          <Button onClick={query.reload}>Refresh texts</Button>
        </div>
      </div>
      <QueryView query={query}>
        {({ active, messages }) =>
          !active ? (
            <Banner tone="info">This server keeps no text messages (it does in development only).</Banner>
          ) : messages.length === 0 ? (
            <p>No text messages yet. SMS and WhatsApp messages whose provider has no credentials show here.</p>
          ) : (
            <div className="mailbox">
              {messages.map((m) => (
                <Text key={m.id} message={m} />
              ))}
            </div>
          )
        }
      </QueryView>
    </section>
  );
}
