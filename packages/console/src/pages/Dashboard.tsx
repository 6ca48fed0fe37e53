import { formatDateTime, type Level, levels, type MachineEvent } from '@medlocker/core';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { machinePaths } from '../paths.ts';
import { activeAlarms, type FleetMachine, hasExcursion, useFleet } from '../state/fleet.ts';
import { liveConnectionAtom, useLiveSubscription } from '../state/live.ts';
import { useProductName, useSession } from '../state/session.ts';
import { Banner } from '../ui/Banner.tsx';
import { Button } from '../ui/Button.tsx';
import { Link } from '../ui/Link.tsx';
import { LoadError } from '../ui/LoadError.tsx';
import { Loading, Page } from '../ui/Page.tsx';
import { OpenAlarms } from './machines/OpenAlarms.tsx';
import { FleetLists, LIST_MAX, machineLink } from './pharmacy-dashboard/fleet-lists.tsx';
import { t } from './pharmacy-dashboard/i18n/index.ts';
import { UsageTiles } from './usage/UsageTiles.tsx';

/** How often the dashboard lets alarms that turned 24 hours old leave the list. */
const AGE_CHECK_MS = 60_000;

/** The time now, again every `everyMs`. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

const levelOrder: Level[] = ['critical', 'error', 'warn', 'info'];

/** The fleet's machines by name, in the groups the dashboard counts and lists. */
function fleetView(fleet: Parameters<typeof activeAlarms>[0], now: number) {
  const all = Object.values(fleet.machines).sort((a, b) => a.machine.name.localeCompare(b.machine.name));
  return {
    all,
    online: all.filter((m) => m.online),
    offline: all.filter((m) => !m.online),
    outOfOrder: all.filter((m) => m.machine.outOfOrderStatus !== null),
    excursions: all.filter((m) => hasExcursion(m.machine)),
    names: new Map(all.map((m) => [m.machine.id, m])),
    // One answer for the Active alarms count and the list under it (core's isActiveAlarm).
    alarms: activeAlarms(fleet, now),
  };
}

/**
 * `/`: the fleet at a glance, live: online, offline, out of order, active alarms, temperature excursions;
 * and the estate's usage now (live orders, occupancy, messages waiting) with its usage analyses.
 */
export function Dashboard() {
  const product = useProductName();
  const session = useSession();
  const user = session?.user ?? null;
  const query = useFleet();
  const fleet = query.data ?? { machines: {}, alarms: [] };
  const now = useNow(AGE_CHECK_MS);
  const connection = useAtomValue(liveConnectionAtom);
  const load = () => void query.refetch();
  const loading = query.isFetching;
  const loginMessage = session?.loginMessage;
  useLiveSubscription({ fleet: true });

  const { all, online, offline, outOfOrder, excursions, names, alarms } = fleetView(fleet, now);

  return (
    <Page
      title={t('dashboard.title')}
      lead={
        user?.givenName
          ? t('dashboard.support.leadNamed', { name: user.givenName, product })
          : t('dashboard.support.lead', { product })
      }
      actions={
        <Button onPress={load} isPending={loading && all.length > 0}>
          {t('dashboard.reload')}
        </Button>
      }
    >
      {loginMessage && <Banner tone="info">{loginMessage}</Banner>}
      {connection === 'closed' && query.isSuccess && !loading && (
        <Banner tone="warning">{t('dashboard.livePaused')}</Banner>
      )}
      {query.error && !loading && <LoadError error={query.error} onRetry={load} />}
      {loading && all.length === 0 ? (
        <Loading label={t('dashboard.fleet.loading')} />
      ) : (
        <div className="fleet">
          <FleetCounts
            online={online.length}
            offline={offline.length}
            outOfOrder={outOfOrder.length}
            alarms={alarms.length}
            excursions={excursions.length}
          />
          <UsageTiles businessId={null} />
          <OpenAlarms />
          <ActiveAlarms alarms={alarms} names={names} />
          <FleetLists online={online} offline={offline} outOfOrder={outOfOrder} excursions={excursions} />
        </div>
      )}
    </Page>
  );
}

/** How many machines are online, offline, out of order, alarming or too warm. */
function FleetCounts(n: { online: number; offline: number; outOfOrder: number; alarms: number; excursions: number }) {
  return (
    <ul className="fleet__counts" aria-label={t('dashboard.fleet')}>
      <Count label={t('dashboard.fleet.online')} value={n.online} tone="ok" />
      <Count label={t('dashboard.fleet.offline')} value={n.offline} tone={n.offline > 0 ? 'off' : 'ok'} />
      <Count label={t('dashboard.fleet.outOfOrder')} value={n.outOfOrder} tone={n.outOfOrder > 0 ? 'warn' : 'ok'} />
      <Count label={t('dashboard.fleet.activeAlarms')} value={n.alarms} tone={n.alarms > 0 ? 'bad' : 'ok'} />
      <Count label={t('dashboard.fleet.excursions')} value={n.excursions} tone={n.excursions > 0 ? 'bad' : 'ok'} />
    </ul>
  );
}

type Alarm = ReturnType<typeof activeAlarms>[number];

/** The last 24 hours' alarms still active, by level, the worst first, each level's first few. */
function ActiveAlarms({ alarms, names }: { alarms: Alarm[]; names: Map<string, FleetMachine> }) {
  return (
    <section className="fleet__section" aria-labelledby="alarms-title">
      <h2 id="alarms-title" className="section-title">
        {t('dashboard.fleet.activeAlarms')}
      </h2>
      <p className="muted">{t('dashboard.alarms.lead')}</p>
      {alarms.length === 0 ? (
        <p className="empty">{t('dashboard.alarms.none')}</p>
      ) : (
        levelOrder
          .filter((level) => levels.includes(level))
          .map((level) => {
            const of = alarms.filter((a) => a.level === level);
            if (of.length === 0) return null;
            return (
              <section key={level} aria-label={t('dashboard.alarms.ofLevel', { level })} className="fleet__level">
                <h3 className="fleet__level-title">
                  {level} ({of.length})
                </h3>
                <ul className="fleet__list">
                  {of.slice(0, LIST_MAX).map((a) => (
                    <AlarmItem key={a.id} alarm={a} machine={names.get(a.machineId)} />
                  ))}
                  {of.length > LIST_MAX && (
                    <li className="muted">{t('dashboard.andMore', { count: of.length - LIST_MAX })}</li>
                  )}
                </ul>
              </section>
            );
          })
      )}
    </section>
  );
}

function Count({ label, value, tone }: { label: string; value: number; tone: 'ok' | 'off' | 'warn' | 'bad' }) {
  return (
    <li className={`fleet__count fleet__count--${tone}`}>
      <span className="fleet__count-value">{value}</span>
      <span className="fleet__count-label">{label}</span>
    </li>
  );
}

function AlarmItem({ alarm, machine }: { alarm: MachineEvent; machine: FleetMachine | undefined }) {
  return (
    <li>
      {machine ? (
        machineLink(machine)
      ) : (
        <Link href={machinePaths.machine(alarm.businessId, alarm.machineId)}>{t('dashboard.alarms.machine')}</Link>
      )}{' '}
      <span>
        {alarm.code} {alarm.message}
      </span>{' '}
      <span className="muted">{formatDateTime(alarm.created)}</span>
    </li>
  );
}
