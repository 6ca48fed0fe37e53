import { formatDate, formatDateTime, type UsageOverview } from '@medlocker/core';
import { useEffect } from 'react';
import { rpc } from '../../api/client.ts';
import { type Query, useQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
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
  const query = useQuery(
    (signal) => rpc('reports', 'getUsageStats', businessId ? { businessId } : {}, { signal }),
    ['reports', 'getUsageStats', businessId],
  );
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
  const usage = query.data;
  const estate = businessId === null;
  return (
    <section aria-labelledby="usage-title" className="fleet__section usage">
      <h2 id="usage-title" className="section-title">
        {estate ? 'Estate now' : 'Now'}
      </h2>
      {query.error ? (
        <LoadError error={query.error} onRetry={query.reload} />
      ) : !usage ? (
        <Loading label="Loading usage…" />
      ) : (
        <>
          <ul className="fleet__counts" aria-label="Usage now">
            <Tile
              label="Live orders"
              value={usage.liveOrders.total}
              detail={`${usage.liveOrders.inMachines} in lockers, ${usage.liveOrders.awaitingLoad} to load`}
            />
            <Tile
              label="Slots used"
              value={usage.occupancy.slotsUsed}
              detail={`of ${usage.occupancy.slotsTotal} in ${usage.occupancy.machineCount} ${plural(usage.occupancy.machineCount, 'machine')}`}
            />
            <Tile
              label="Machines offline or out of order"
              value={usage.machinesDown.total}
              detail={`${usage.machinesDown.offline} offline, ${usage.machinesDown.outOfOrder} out of order`}
              tone={usage.machinesDown.total > 0 ? 'warn' : 'ok'}
            />
            <Tile
              label="Bags to remove"
              value={usage.bagsToRemove.total}
              detail={`${usage.bagsToRemove.cancelled} cancelled, ${usage.bagsToRemove.expired} expired`}
              tone={usage.bagsToRemove.total > 0 ? 'warn' : 'ok'}
            />
            <Tile
              label="Messages waiting"
              value={usage.messagesWaiting.count}
              detail={
                usage.messagesWaiting.oldestCreated === null
                  ? 'none queued'
                  : `oldest ${formatDateTime(usage.messagesWaiting.oldestCreated)}`
              }
              tone={usage.messagesWaiting.count > 0 ? 'warn' : 'ok'}
            />
          </ul>
          <Occupancy usage={usage} estate={estate} />
          <MachinesDown usage={usage} estate={estate} />
          <UsageAnalyses usage={usage} />
          <p className="muted">
            Collections from {formatDate(usage.from)} to {formatDate(usage.to)}.
          </p>
        </>
      )}
    </section>
  );
}

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);

function Tile(props: { label: string; value: number; detail: string; tone?: 'ok' | 'warn' }) {
  return (
    <li className={`fleet__count fleet__count--${props.tone ?? 'ok'}`}>
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
      title={<>Occupancy {estate && machineCount > machines.length ? `(the ${machines.length} fullest)` : ''}</>}
      empty={machines.length === 0 && 'No machines yet.'}
    >
      <ul className="usage__bars" aria-label="Occupancy per machine">
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
                aria-label={`${m.machineName}: ${m.slotsUsed} of ${m.numberOfSlots} slots used`}
              />
              <span className="usage__bar-figure">
                {m.slotsUsed} / {m.numberOfSlots} slots ({percent}%)
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
      title={`Machines offline or out of order (${total})`}
      empty={machines.length === 0 && 'Every machine is online and in order.'}
    >
      <ul className="fleet__list" aria-label="Offline or out of order">
        {machines.map((m) => (
          <li key={m.machineId}>
            {machineLink(m, estate)}{' '}
            <span className="muted">
              {m.outOfOrderSince !== null
                ? `out of order since ${formatDateTime(m.outOfOrderSince)}`
                : m.lastSeen !== null
                  ? `offline, last seen ${formatDateTime(m.lastSeen)}`
                  : 'offline, never connected'}
              {m.outOfOrderSince !== null && !m.online ? ', offline' : ''}
            </span>
          </li>
        ))}
        {total > machines.length && <li className="muted">and {total - machines.length} more</li>}
      </ul>
    </UsagePart>
  );
}
