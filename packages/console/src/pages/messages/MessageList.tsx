import { type DeliveryStatus, formatDateTime, type MessageChannel, type OutboxMessage } from '@medlocker/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { messagesStatusAtom } from '../../state/messages.ts';
import { choiceCodec, useUrlState } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { Select } from '../../ui/Select.tsx';
import { DetailsItem } from '../businesses/entity-parts.tsx';

const channelLabels: Record<MessageChannel, string> = { sms: 'SMS', email: 'Email', whatsapp: 'WhatsApp' };

// SPEC §4 calls a delivered message 'success'; staff read it as sent.
const statusLabels: Record<DeliveryStatus, string> = { pending: 'Pending', success: 'Sent', failed: 'Failed' };
const statusTones: Record<DeliveryStatus, string> = { pending: 'info', success: 'ok', failed: 'bad' };

const statusCodec = choiceCodec<DeliveryStatus>(['pending', 'success', 'failed']);

const statusOptions = [
  { id: 'all', label: 'All' },
  ...(['pending', 'success', 'failed'] as const).map((status) => ({ id: status, label: statusLabels[status] })),
];

/** 'alarm.EM_0003' → 'Alarm EM_0003'; the patient templates by their own key. */
const kindOf = (templateKey: string) =>
  templateKey.startsWith('alarm.') ? `Alarm ${templateKey.slice('alarm.'.length)}` : templateKey;

/** A body the server kept back (it may hold a sign-up code or a PIN). */
const Hidden = () => <span className="muted">hidden</span>;

function StatusBadge({ status }: { status: DeliveryStatus }) {
  return <span className={`badge badge--${statusTones[status]}`}>{statusLabels[status]}</span>;
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
    { key: 'queued', header: 'Queued', width: '11rem', render: (m) => formatDateTime(m.created) },
    { key: 'channel', header: 'Channel', width: '5rem', render: (m) => channelLabels[m.channel] },
    { key: 'to', header: 'To', width: 'minmax(9.5rem, 1.2fr)', render: (m) => m.recipient },
    { key: 'kind', header: 'Kind', width: 'minmax(8.5rem, 1fr)', render: (m) => kindOf(m.templateKey) },
    { key: 'message', header: 'Message', width: 'minmax(6rem, 1.5fr)', render: (m) => m.body ?? <Hidden /> },
    { key: 'status', header: 'Status', width: '5.5rem', render: (m) => <StatusBadge status={m.status} /> },
    {
      key: 'view',
      header: 'Details',
      width: '4rem',
      render: (m) => (
        <Button
          variant="quiet"
          onPress={() => setShown(m)}
          aria-label={`View the ${channelLabels[m.channel]} to ${m.recipient} queued ${formatDateTime(m.created)}`}
        >
          View
        </Button>
      ),
    },
  ];

  return (
    <ListPage
      title="Messages"
      frame="section"
      filters={
        <Select
          label="Status"
          options={statusOptions}
          selectedKey={status ?? 'all'}
          onSelectionChange={(key) => setStatus(key === 'all' || key === null ? null : (key as DeliveryStatus))}
        />
      }
      query={{
        key: ['messages', 'listOutbox', businessId, status],
        load: async (_search, nextToken) => {
          const page = await rpc('messages', 'listOutbox', { businessId, status: status ?? undefined, nextToken });
          return { items: page.messages, nextToken: page.nextToken };
        },
      }}
      label="Messages"
      columns={columns}
      emptyText="No messages found"
    >
      {shown && <MessageDialog message={shown} onClose={() => setShown(null)} />}
    </ListPage>
  );
}

/** One message in full: where it went, its wording (unless hidden) and how delivery went. */
function MessageDialog({ message: m, onClose }: { message: OutboxMessage; onClose: () => void }) {
  return (
    <Dialog title="Message" isOpen onOpenChange={(open) => !open && onClose()}>
      <dl className="details details--flat details--stacked dialog__body">
        <DetailsItem term="To">
          {m.recipient} ({channelLabels[m.channel]})
        </DetailsItem>
        <DetailsItem term="Kind">{kindOf(m.templateKey)}</DetailsItem>
        {m.subject !== null && <DetailsItem term="Subject">{m.subject}</DetailsItem>}
        <DetailsItem term="Message">
          {m.body === null ? <Hidden /> : <span className="message-text">{m.body}</span>}
        </DetailsItem>
        <DetailsItem term="Delivery">
          <StatusBadge status={m.status} /> {m.attempts === 1 ? '1 attempt' : `${m.attempts} attempts`}
          {m.lastError !== null && <span className="message-text">: {m.lastError}</span>}
        </DetailsItem>
        <DetailsItem term="When">
          Queued {formatDateTime(m.created)}
          {m.sentAt === null ? ', not sent yet' : `, sent ${formatDateTime(m.sentAt)}`}
        </DetailsItem>
      </dl>
      <div className="dialog__actions">
        <Button variant="primary" onPress={onClose} autoFocus>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
