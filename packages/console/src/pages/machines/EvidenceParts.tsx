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
import { t } from './i18n/index.ts';

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
  const where =
    order.outAt === null
      ? t('machines.evidence.stillInside', { in: formatDateTime(order.inAt) })
      : t('machines.evidence.inAndOut', { in: formatDateTime(order.inAt), out: formatDateTime(order.outAt) });
  return (
    <li className="evidence__order" aria-label={t('machines.evidence.order', { reference: order.reference })}>
      <div className="evidence__order-head">
        <Checkbox isSelected={selected} onChange={onSelect} isDisabled={!order.live && !order.pinHold}>
          <span className="visually-hidden">{t('machines.evidence.selectOrder')} </span>
          {order.reference}
        </Checkbox>
        <span>
          <Link href={orderPaths.order(businessId, order.id)}>{order.patientName}</Link> · {order.barcode} ·{' '}
          {t('machines.evidence.slot', { slot: order.location ?? '—' })} · {where} · {order.status}
          {!order.live && order.status === 'loaded' ? ` ${t('machines.evidence.expired')}` : ''}
        </span>
        {order.pinHold && (
          <span className="evidence__held">
            {t('machines.evidence.pinHeld', { user: order.pinHold.heldByDisplayName, reason: order.pinHold.reason })}
          </span>
        )}
      </div>
      {order.messages.length === 0 ? (
        <p className="empty">{t('machines.evidence.noMessages')}</p>
      ) : (
        <ul
          className="evidence__messages"
          aria-label={t('machines.evidence.messagesAbout', { reference: order.reference })}
        >
          {order.messages.map((m) => (
            <li key={m.id}>
              <time>{formatDateTime(m.created)}</time>{' '}
              {t('machines.evidence.message', {
                name: m.name,
                channel: m.channel,
                recipient: m.recipient,
                status: m.status,
                body: m.body,
              })}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** The readings over the range, and the excursions among them. */
export function TemperatureSummary({ temperature }: { temperature: Pack['temperature'] }) {
  const r = temperature;
  return (
    <>
      <h3>{t('machines.evidence.temperature')}</h3>
      <p>
        {r.count === 0
          ? t('machines.evidence.noReadings')
          : t('machines.evidence.readings', {
              count: r.count,
              min: formatTemperature(r.min ?? 0),
              max: formatTemperature(r.max ?? 0),
              average: formatTemperature(r.average ?? 0),
              outside: r.outsideCount,
              bandMin: r.band.min,
              bandMax: r.band.max,
            })}
      </p>
      <h4>{t('machines.evidence.excursions')}</h4>
      <EventList
        events={r.excursions}
        empty={t('machines.evidence.noExcursions')}
        label={t('machines.evidence.excursions')}
      />
    </>
  );
}

/** Who did what to the orders in the range, and when. */
export function WhoActed({ actions }: { actions: Pack['actions'] }) {
  return (
    <>
      <h3>{t('machines.evidence.whoActed')}</h3>
      {actions.length === 0 ? (
        <p className="empty">{t('machines.evidence.nobodyActed')}</p>
      ) : (
        <ul className="evidence__events" aria-label={t('machines.evidence.whoActed')}>
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
        {t('machines.evidence.holdCounted', { count: toHold })}
      </Button>
      <Button isDisabled={toRelease === 0} onPress={() => onAsk('release')}>
        {t('machines.evidence.releaseCounted', { count: toRelease })}
      </Button>
    </div>
  );
}
