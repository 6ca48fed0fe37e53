import { type DeliveryStatus, formatDateTime, type MessageChannel, type OutboxMessage } from '@medlocker/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { messagesStatusAtom } from '../../state/messages.ts';
import { choiceCodec, useUrlState } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { createdColumn, type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Select } from '../../ui/Select.tsx';
import { t } from './i18n/index.ts';

const channelLabel = (channel: MessageChannel) => t(`messages.channel.${channel}` as const);

// SPEC §4 calls a delivered message 'success'; staff read it as sent.
const statusLabel = (status: DeliveryStatus) => t(`messages.status.${status}` as const);
const statusTones: Record<DeliveryStatus, string> = { pending: 'info', success: 'ok', failed: 'bad' };

const statusCodec = choiceCodec<DeliveryStatus>(['pending', 'success', 'failed']);

const statusOptions = () => [
  { id: 'all', label: t('messages.all') },
  ...(['pending', 'success', 'failed'] as const).map((status) => ({ id: status, label: statusLabel(status) })),
];

/** 'alarm.EM_0003' → 'Alarm EM_0003'; the patient templates by their own key. */
const kindOf = (templateKey: string) =>
  templateKey.startsWith('alarm.')
    ? t('messages.alarmKind', { code: templateKey.slice('alarm.'.length) })
    : templateKey;

/** A body the server kept back (it may hold a sign-up code or a PIN). */
const Hidden = () => <span className="muted">{t('messages.hidden')}</span>;

function StatusBadge({ status }: { status: DeliveryStatus }) {
  return <span className={`badge badge--${statusTones[status]}`}>{statusLabel(status)}</span>;
}

/**
 * `/businesses/{businessId}/messages`: the SMS, email and WhatsApp messages queued for the business
 * (alarms to its keyholders, codes and notices to patients), newest first, with a status filter kept in the
 * URL (`?status=failed`) and for the session, paged as it scrolls; each row opens the whole message.
 */
export function MessageList() {
  const { businessId = '' } = useParams();
  const [status, setStatus] = useUrlState('status', messagesStatusAtom, statusCodec);
  const [shown, setShown] = useState<OutboxMessage | null>(null);
  const columns: ListColumn<OutboxMessage>[] = [
    createdColumn('queued', t('messages.column.queued')),
    { key: 'channel', header: t('messages.column.channel'), width: '5rem', render: (m) => channelLabel(m.channel) },
    { key: 'to', header: t('messages.column.to'), width: 'minmax(9.5rem, 1.2fr)', render: (m) => m.recipient },
    {
      key: 'kind',
      header: t('messages.column.kind'),
      width: 'minmax(8.5rem, 1fr)',
      render: (m) => kindOf(m.templateKey),
    },
    {
      key: 'message',
      header: t('messages.column.message'),
      width: 'minmax(6rem, 1.5fr)',
      render: (m) => m.body ?? <Hidden />,
    },
    {
      key: 'status',
      header: t('messages.column.status'),
      width: '5.5rem',
      render: (m) => <StatusBadge status={m.status} />,
    },
    {
      key: 'view',
      header: t('messages.column.details'),
      width: '4rem',
      render: (m) => (
        <Button
          variant="quiet"
          onPress={() => setShown(m)}
          aria-label={t('messages.viewLabel', {
            channel: channelLabel(m.channel),
            recipient: m.recipient,
            queued: formatDateTime(m.created),
          })}
        >
          {t('messages.view')}
        </Button>
      ),
    },
  ];

  return (
    <ListPage
      title={t('messages.title')}
      frame="section"
      filters={
        <Select
          label={t('messages.filter.status')}
          options={statusOptions()}
          selectedKey={status ?? 'all'}
          onSelectionChange={(key) => setStatus(key === 'all' || key === null ? null : (key as DeliveryStatus))}
        />
      }
      query={rpcListQuery(['messages', 'listOutbox', businessId, status], 'messages', (_search, nextToken) => ({
        businessId,
        status: status ?? undefined,
        nextToken,
      }))}
      label={t('messages.title')}
      columns={columns}
      emptyText={t('messages.empty')}
    >
      {shown && <MessageDialog message={shown} onClose={() => setShown(null)} />}
    </ListPage>
  );
}

/** One message in full: where it went, its wording (unless hidden) and how delivery went. */
function MessageDialog({ message: m, onClose }: { message: OutboxMessage; onClose: () => void }) {
  return (
    <Dialog title={t('messages.dialog.title')} isOpen onOpenChange={(open) => !open && onClose()}>
      <dl className="details details--flat details--stacked dialog__body">
        <DetailsItem term={t('messages.dialog.to')}>
          {t('messages.dialog.toValue', { recipient: m.recipient, channel: channelLabel(m.channel) })}
        </DetailsItem>
        <DetailsItem term={t('messages.dialog.kind')}>{kindOf(m.templateKey)}</DetailsItem>
        {m.subject !== null && <DetailsItem term={t('messages.dialog.subject')}>{m.subject}</DetailsItem>}
        <DetailsItem term={t('messages.dialog.message')}>
          {m.body === null ? <Hidden /> : <span className="message-text">{m.body}</span>}
        </DetailsItem>
        <DetailsItem term={t('messages.dialog.delivery')}>
          <StatusBadge status={m.status} /> {t('messages.dialog.attempts', { attempts: m.attempts })}
          {m.lastError !== null && <span className="message-text">: {m.lastError}</span>}
        </DetailsItem>
        <DetailsItem term={t('messages.dialog.when')}>
          {m.sentAt === null
            ? t('messages.dialog.queuedNotSent', { queued: formatDateTime(m.created) })
            : t('messages.dialog.queuedSent', { queued: formatDateTime(m.created), sent: formatDateTime(m.sentAt) })}
        </DetailsItem>
      </dl>
      <div className="dialog__actions">
        <Button variant="primary" onPress={onClose} autoFocus>
          {t('messages.dialog.close')}
        </Button>
      </div>
    </Dialog>
  );
}
