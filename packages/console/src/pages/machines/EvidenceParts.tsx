import {
  type EvidenceMachineEvent,
  type EvidenceOrder,
  formatDateTime,
  formatTemperature,
  type EvidencePack as Pack,
} from '@medlocker/core';
import { orderPaths } from '../../paths.ts';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Link } from '../../ui/Link.tsx';

/* Parts of the evidence pack page: its temperature, events, orders inside the machine and who acted. */

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

/** The readings over the range, and the excursions among them. */
export function TemperatureSummary({ t }: { t: Pack['temperature'] }) {
  return (
    <>
      <h3>Temperature</h3>
      <p>
        {t.count === 0
          ? 'No readings in this range.'
          : `${t.count} readings: lowest ${formatTemperature(t.min ?? 0)}, highest ${formatTemperature(t.max ?? 0)}, average ${formatTemperature(t.average ?? 0)}. ${t.outsideCount} outside ${t.band.min}–${t.band.max} °C.`}
      </p>
      <h4>Excursions</h4>
      <EventList events={t.excursions} empty="No temperature excursions." label="Excursions" />
    </>
  );
}

/** Who did what to the orders in the range, and when. */
export function WhoActed({ actions }: { actions: Pack['actions'] }) {
  return (
    <>
      <h3>Who acted</h3>
      {actions.length === 0 ? (
        <p className="empty">Nobody acted on these orders in this range.</p>
      ) : (
        <ul className="evidence__events" aria-label="Who acted">
          {actions.map((a) => (
            <li key={a.id}>
              <time>{formatDateTime(a.at)}</time> {a.orderReference ? `${a.orderReference}: ` : ''}
              {a.message} — {a.by || a.via}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Hold or release the PINs of the orders ticked (each counts only those it applies to). */
export function HoldButtons({
  toHold,
  toRelease,
  onAsk,
}: {
  toHold: number;
  toRelease: number;
  onAsk: (kind: 'hold' | 'release') => void;
}) {
  return (
    <div className="toolbar">
      <Button variant="danger" isDisabled={toHold === 0} onPress={() => onAsk('hold')}>
        Hold PINs ({toHold})
      </Button>
      <Button isDisabled={toRelease === 0} onPress={() => onAsk('release')}>
        Release PINs ({toRelease})
      </Button>
    </div>
  );
}
