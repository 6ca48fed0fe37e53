import type { LocalTextMessage } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { MailboxSection, MessageLinks } from './mailbox-parts.tsx';
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
      <MessageLinks links={message.links} />
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
    <MailboxSection id="mailbox-texts" title="Text messages" refreshLabel="Refresh texts" onRefresh={query.reload}>
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
    </MailboxSection>
  );
}
