import type { LocalTextMessage } from '@medlocker/core';
import { useRpcQuery } from '../../api/queries.ts';
import { t } from './i18n/index.ts';
import { MailboxSection, MessageLinks } from './mailbox-parts.tsx';
import { sentAt } from './sent-at.ts';

function Text({ message }: { message: LocalTextMessage }) {
  const name = t('mailbox.text.label', { channel: message.channel, to: message.to });
  return (
    <article className="card mailbox__message" aria-label={name}>
      <header>
        <h3 className="mailbox__subject">{name}</h3>
        <p className="mailbox__meta">
          {t('mailbox.text.meta', {
            sender: message.sender,
            sentAt: sentAt(message.sentAt),
            provider: message.provider,
          })}
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
  const query = useRpcQuery(['mailbox', 'listTexts'], {});
  return (
    <MailboxSection
      id="mailbox-texts"
      title={t('mailbox.texts')}
      refreshLabel={t('mailbox.refreshTexts')}
      query={query}
      isOn={(data) => data.active}
      offNote={t('mailbox.textsInactive')}
      emptyText={t('mailbox.noTexts')}
    >
      {(m) => <Text message={m} />}
    </MailboxSection>
  );
}
