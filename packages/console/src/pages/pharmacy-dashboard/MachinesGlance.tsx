import { alarmResolutionOf, isActiveAlarm, isResolvedAlarmEvent, type Machine } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { usePagedQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { hasExcursion } from '../../state/fleet.ts';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
import { ConnectionBadge } from '../machines/MachineStatusBadges.tsx';
import { t } from './i18n/index.ts';

type Row = Machine & { online: boolean; lastSeen: number | null };

/**
 * The business's active machines (listMachines' first page, as the Machines list has it): online or
 * offline, out of order, temperature excursion, and an active alarm. Machine pushes update the rows in
 * the cache (state/machines.ts), so the states change live.
 */
export function MachinesGlance({ businessId }: { businessId: string }) {
  // The Machines list's key (ListPage: filters, then the search text): one cached answer for both.
  const list = usePagedQuery(
    async (nextToken) => {
      const page = await rpc('machines', 'listMachines', { businessId, archived: false, nextToken });
      return { items: page.machines as Row[], nextToken: page.nextToken };
    },
    ['machines', 'listMachines', businessId, false, ''],
  );

  return (
    <section aria-labelledby="glance-machines" className="fleet__section">
      <h2 id="glance-machines" className="section-title">
        {t('dashboard.machines.title')}
      </h2>
      {list.error ? (
        <LoadError error={list.error} onRetry={list.reload} />
      ) : list.items.length === 0 ? (
        list.isLoading ? (
          <Loading label={t('dashboard.machines.loading')} />
        ) : (
          <p className="empty">{t('dashboard.machines.none')}</p>
        )
      ) : (
        <ul className="glance__list" aria-label={t('dashboard.machines.title')}>
          {list.items.map((m) => (
            <MachineItem key={m.id} machine={m} />
          ))}
        </ul>
      )}
      <p>
        <Link href={machinePaths.list(businessId)}>{t('dashboard.machines.all')}</Link>
      </p>
    </section>
  );
}

function MachineItem({ machine }: { machine: Row }) {
  const alarm = useActiveAlarm(machine);
  return (
    <li className="glance__item">
      <Link href={machinePaths.machine(machine.businessId, machine.id)}>{machine.name}</Link>
      <ConnectionBadge online={machine.online} outOfOrder={machine.outOfOrderStatus !== null} archived={false} />
      {hasExcursion(machine) && <span className="badge badge--bad">{t('dashboard.machines.excursion')}</span>}
      {alarm && (
        <>
          <span className="badge badge--bad">{t('dashboard.machines.alarm')}</span>
          <span className="muted">
            {alarm.code} {alarm.message}
          </span>
        </>
      )}
    </li>
  );
}

/**
 * The newest active alarm among the machine's latest events (listEvents' first page, the Events tab's
 * cached answer, which machine pushes keep current), by core's rules for the support dashboard: one a
 * resolution among those events (MP_0015) ended is not active.
 */
function useActiveAlarm(machine: Row) {
  const events = usePagedQuery(
    async (nextToken) => {
      const page = await rpc('machines', 'listEvents', { machineId: machine.id, nextToken });
      return { items: page.events, nextToken: page.nextToken };
    },
    ['machines', 'listEvents', machine.id, null, null, ''],
  );
  const now = Date.now();
  const resolutions = events.items.flatMap((e) => alarmResolutionOf(e) ?? []);
  return events.items.find((e) => isActiveAlarm(e, now, machine) && !isResolvedAlarmEvent(e, resolutions));
}
