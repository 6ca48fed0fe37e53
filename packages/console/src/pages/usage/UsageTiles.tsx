import { formatDate, formatDateTime, type UsageOverview } from '@medlocker/core';
import { useEffect } from 'react';
import { type Query, useRpcQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { Link } from '../../ui/Link.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { t } from './i18n/index.ts';
import { UsageAnalyses, UsagePart } from './UsageAnalyses.tsx';

/** Usage stats are asked again at most this often without a push (pushes make them stale at once). */
const POLL_MS = 60_000;

/**
 * reports/getUsageStats for a business, or the estate (`businessId` null, support only). Cached under
 * `['reports', 'getUsageStats', businessId]`: order, machine and notification pushes make it stale
 * (state/invalidate.ts); between pushes it is asked again every minute (messages waiting change
 * without one).
 */
export function useUsageStats(businessId: string | null): Query<UsageOverview> {
  const query = useRpcQuery(['reports', 'getUsageStats', businessId], businessId ? { businessId } : {});
  const { reload } = query;
  useEffect(() => {
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return query as Query<UsageOverview>;
}

/**
 * The dashboards' usage tiles: live orders, slots used, machines offline or out of order, bags to
 * remove, messages waiting; occupancy per machine as a bar each; then the usage analyses. `businessId` null is the
 * estate (the support dashboard).
 */
export function UsageTiles({ businessId }: { businessId: string | null }) {
  const query = useUsageStats(businessId);
  const estate = businessId === null;
  return (
    <section aria-labelledby="usage-title" className="fleet__section usage">
      <h2 id="usage-title" className="section-title">
        {estate ? t('usage.title.estate') : t('usage.title.business')}
      </h2>
      <QueryView query={query} loadingLabel={t('usage.loading')}>
        {(usage) => (
          <>
            <ul className="fleet__counts" aria-label={t('usage.tiles')}>
              <Tile
                label={t('usage.liveOrders')}
                value={usage.liveOrders.total}
                detail={t('usage.liveOrdersDetail', usage.liveOrders)}
              />
              <Tile
                label={t('usage.slotsUsed')}
                value={usage.occupancy.slotsUsed}
                detail={t('usage.slotsUsedDetail', {
                  slots: usage.occupancy.slotsTotal,
                  count: usage.occupancy.machineCount,
                })}
              />
              <Tile
                label={t('usage.machinesDown')}
                value={usage.machinesDown.total}
                detail={t('usage.machinesDownDetail', usage.machinesDown)}
                warns
              />
              <Tile
                label={t('usage.bagsToRemove')}
                value={usage.bagsToRemove.total}
                detail={t('usage.bagsToRemoveDetail', usage.bagsToRemove)}
                warns
              />
              <Tile
                label={t('usage.messagesWaiting')}
                value={usage.messagesWaiting.count}
                detail={
                  usage.messagesWaiting.oldestCreated === null
                    ? t('usage.messagesNone')
                    : t('usage.messagesOldest', { at: formatDateTime(usage.messagesWaiting.oldestCreated) })
                }
                warns
              />
            </ul>
            <Occupancy usage={usage} estate={estate} />
            <MachinesDown usage={usage} estate={estate} />
            <UsageAnalyses usage={usage} />
            <p className="muted">
              {t('usage.collectionsSpan', { from: formatDate(usage.from), to: formatDate(usage.to) })}
            </p>
          </>
        )}
      </QueryView>
    </section>
  );
}

/** A count with its label and the line under it; a `warns` count above nought is shown as needing doing. */
function Tile(props: { label: string; value: number; detail: string; warns?: boolean }) {
  return (
    <li className={`fleet__count fleet__count--${props.warns && props.value > 0 ? 'warn' : 'ok'}`}>
      <span className="fleet__count-value">{props.value}</span>
      <span className="fleet__count-label">{props.label}</span>
      <span className="muted usage__detail">{props.detail}</span>
    </li>
  );
}

type Machine = UsageOverview['occupancy']['machines'][number];

function machineLink(m: Omit<Machine, 'slotsUsed' | 'numberOfSlots'>, estate: boolean) {
  return (
    <Link href={machinePaths.machine(m.businessId, m.machineId)}>
      {m.machineName}
      {estate ? ` (${m.businessName})` : ''}
    </Link>
  );
}

function Occupancy({ usage, estate }: { usage: UsageOverview; estate: boolean }) {
  const { machines, machineCount } = usage.occupancy;
  return (
    <UsagePart
      id="usage-occupancy"
      title={
        estate && machineCount > machines.length
          ? t('usage.occupancy.titleFullest', { count: machines.length })
          : t('usage.occupancy.title')
      }
      empty={machines.length === 0 && t('usage.occupancy.none')}
    >
      <ul className="usage__bars" aria-label={t('usage.occupancy.list')}>
        {machines.map((m) => {
          const percent = Math.round((100 * m.slotsUsed) / m.numberOfSlots);
          return (
            <li key={m.machineId} className="usage__bar">
              <span className="usage__bar-name">{machineLink(m, estate)}</span>
              <meter
                className="usage__meter"
                min={0}
                max={m.numberOfSlots}
                value={m.slotsUsed}
                aria-label={t('usage.occupancy.meter', {
                  machine: m.machineName,
                  used: m.slotsUsed,
                  slots: m.numberOfSlots,
                })}
              />
              <span className="usage__bar-figure">
                {t('usage.occupancy.figure', { used: m.slotsUsed, slots: m.numberOfSlots, percent })}
              </span>
            </li>
          );
        })}
      </ul>
    </UsagePart>
  );
}

function MachinesDown({ usage, estate }: { usage: UsageOverview; estate: boolean }) {
  const { machines, total } = usage.machinesDown;
  return (
    <UsagePart
      id="usage-down"
      title={t('usage.down.title', { count: total })}
      empty={machines.length === 0 && t('usage.down.none')}
    >
      <ul className="fleet__list" aria-label={t('usage.down.list')}>
        {machines.map((m) => (
          <li key={m.machineId}>
            {machineLink(m, estate)}{' '}
            <span className="muted">
              {m.outOfOrderSince !== null
                ? t('usage.down.outOfOrderSince', { at: formatDateTime(m.outOfOrderSince) })
                : m.lastSeen !== null
                  ? t('usage.down.offlineLastSeen', { at: formatDateTime(m.lastSeen) })
                  : t('usage.down.neverConnected')}
              {m.outOfOrderSince !== null && !m.online ? t('usage.down.alsoOffline') : ''}
            </span>
          </li>
        ))}
        {total > machines.length && (
          <li className="muted">{t('usage.down.more', { count: total - machines.length })}</li>
        )}
      </ul>
    </UsagePart>
  );
}
