import { type EvidenceMachineEvent, type EvidenceOrder, formatDateTime } from '@medlocker/core';
import { orderPaths } from '../../paths.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Link } from '../../ui/Link.tsx';

/* Parts of the evidence pack page (issue 21): a list of machine events, and one order inside the machine. */

export function EventList({ events, empty, label }: { events: EvidenceMachineEvent[]; empty: string; label: string }) {
  if (events.length === 0) return <p className="empty">{empty}</p>;
  return (
    <ul className="evidence__events" aria-label={label}>
      {events.map((e) => (
        <li key={e.id}>
          <time>{formatDateTime(e.created)}</time> <strong>{e.code}</strong> {e.name} ({e.level}){' '}
          {e.message && `— ${e.message}`}
        </li>
      ))}
    </ul>
  );
}

export function OrderItem({
  order,
  businessId,
  selected,
  onSelect,
}: {
  order: EvidenceOrder;
  businessId: string;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const where = `in ${formatDateTime(order.inAt)}${order.outAt === null ? ', still inside' : `, out ${formatDateTime(order.outAt)}`}`;
  return (
    <li className="evidence__order" aria-label={`Order ${order.reference}`}>
      <div className="evidence__order-head">
        <Checkbox isSelected={selected} onChange={onSelect} isDisabled={!order.live && !order.pinHold}>
          <span className="visually-hidden">Select order </span>
          {order.reference}
        </Checkbox>
        <span>
          <Link href={orderPaths.order(businessId, order.id)}>{order.patientName}</Link> · {order.barcode} · slot{' '}
          {order.location ?? '—'} · {where} · {order.status}
          {!order.live && order.status === 'loaded' ? ' (expired)' : ''}
        </span>
        {order.pinHold && (
          <span className="evidence__held">
            PIN held by {order.pinHold.heldByDisplayName}: {order.pinHold.reason}
          </span>
        )}
      </div>
      {order.messages.length === 0 ? (
        <p className="empty">No messages to the patient.</p>
      ) : (
        <ul className="evidence__messages" aria-label={`Messages about ${order.reference}`}>
          {order.messages.map((m) => (
            <li key={m.id}>
              <time>{formatDateTime(m.created)}</time> {m.name} by {m.channel} to {m.recipient} ({m.status}): “{m.body}”
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
