import { formatDateTime, formatTemperature } from '@medlocker/core';
import { machinePaths } from '../../paths.ts';
import type { FleetMachine } from '../../state/fleet.ts';
import { Link } from '../../ui/Link.tsx';
import { t } from './i18n/index.ts';

/** How many machines each list of the support dashboard shows before 'and N more'. */
export const LIST_MAX = 50;

/** The support dashboard's lists of machines: too warm, out of order, offline, online. */
export function FleetLists({
  online,
  offline,
  outOfOrder,
  excursions,
}: Record<'online' | 'offline' | 'outOfOrder' | 'excursions', FleetMachine[]>) {
  return (
    <>
      <MachineSection
        title={t('dashboard.fleet.excursions')}
        empty={t('dashboard.fleet.noExcursions')}
        machines={excursions}
        detail={(m) =>
          m.machine.temperatureStatus
            ? t('dashboard.fleet.excursionDetail', {
                average: formatTemperature(m.machine.temperatureStatus.average),
              })
            : ''
        }
      />
      <MachineSection
        title={t('dashboard.fleet.outOfOrder')}
        empty={t('dashboard.fleet.noneOutOfOrder')}
        machines={outOfOrder}
        detail={(m) =>
          m.machine.outOfOrderStatus
            ? t('dashboard.fleet.outOfOrderDetail', {
                at: formatDateTime(m.machine.outOfOrderStatus.at),
                user: m.machine.outOfOrderStatus.userDisplayName,
              })
            : ''
        }
      />
      <MachineSection
        title={t('dashboard.fleet.offline')}
        empty={t('dashboard.fleet.noneOffline')}
        machines={offline}
        detail={(m) =>
          m.lastSeen
            ? t('dashboard.fleet.lastSeen', { at: formatDateTime(m.lastSeen) })
            : t('dashboard.fleet.neverConnected')
        }
      />
      <MachineSection
        title={t('dashboard.fleet.online')}
        empty={t('dashboard.fleet.noneOnline')}
        machines={online}
        detail={() => ''}
      />
    </>
  );
}

export function machineLink(m: FleetMachine) {
  return (
    <Link href={machinePaths.machine(m.machine.businessId, m.machine.id)}>
      {m.machine.name}
      {m.businessName ? ` (${m.businessName})` : ''}
    </Link>
  );
}

function MachineSection(props: {
  title: string;
  empty: string;
  machines: FleetMachine[];
  detail: (m: FleetMachine) => string;
}) {
  const id = `fleet-${props.title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="fleet__section" aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {props.title} ({props.machines.length})
      </h2>
      {props.machines.length === 0 ? (
        <p className="empty">{props.empty}</p>
      ) : (
        <ul className="fleet__list">
          {props.machines.slice(0, LIST_MAX).map((m) => (
            <li key={m.machine.id}>
              {machineLink(m)} <span className="muted">{props.detail(m)}</span>
            </li>
          ))}
          {props.machines.length > LIST_MAX && (
            <li className="muted">{t('dashboard.andMore', { count: props.machines.length - LIST_MAX })}</li>
          )}
        </ul>
      )}
    </section>
  );
}
