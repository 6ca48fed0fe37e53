import {
  ACTIVE_ALARM_MS,
  alarmLevels,
  alarmTemplateCodes,
  fleetAlarmsPerMachine,
  fleetPageSize,
  isActiveAlarm,
  isResolvedAlarmEvent,
} from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { decodeIdCursor, pageOf } from '../../lists/paging.ts';
import { liveOf } from '../../live/live.ts';
import { lastResolutions } from './alarms-repository.ts';
import { listRecentAlarms } from './event-repository.ts';
import { demoLockers, heartbeatMachines, insertDemoReadings, listFleet } from './fleet-repository.ts';

/**
 * The dashboard's fleet in two queries a page, where it used to take a call per business and per
 * machine: a page of machines, then the active alarms of those machines (core's `isActiveAlarm`, which
 * the dashboard applies again as time passes and pushes arrive: one rule for the count and the list).
 */
export const fleetSummary: Service<'machines/fleetSummary'> = async (deps, _actor, input) => {
  const { db, now } = deps;
  const after = decodeIdCursor(input.nextToken);
  const fleet = await listFleet(db, { ...(after ? { after } : {}), limit: fleetPageSize });
  const page = pageOf(fleet, fleetPageSize, (r) => [r.machine.id]);
  const machineIds = page.items.map((r) => r.machine.id);
  const since = now() - ACTIVE_ALARM_MS;
  const alarms = await listRecentAlarms(db, {
    machineIds,
    since,
    codes: alarmTemplateCodes,
    levels: alarmLevels,
    perMachine: fleetAlarmsPerMachine,
  });
  const machines = page.items.map(({ machine, businessName, online, lastSeen }) => {
    const { id, businessId, name, outOfOrderStatus, temperatureStatus } = machine;
    return { id, businessId, businessName, name, online, lastSeen, outOfOrderStatus, temperatureStatus };
  });
  // The SQL narrows by time, code and level; core's rules have the last word (a cleared excursion, a
  // critical alarm resolved by its locker or by a person).
  const resolutions = await lastResolutions(db, machineIds, since);
  const byId = new Map(machines.map((m) => [m.id, m]));
  const at = now();
  return {
    machines,
    alarms: alarms.filter((a) => isActiveAlarm(a, at, byId.get(a.machineId)) && !isResolvedAlarmEvent(a, resolutions)),
    nextToken: page.nextToken,
  };
};

/** How often the demo's lockers report: a heartbeat well inside the hub's offline window. */
export const DEMO_HEARTBEAT_MS = 30_000;
/** A temperature reading per demo locker this often, as the seed's history has them. */
export const DEMO_READING_MS = 15 * 60_000;

/**
 * The demo fleet: while the server runs, the seeded demo lockers (demoLockers: never paired, in
 * service) send a heartbeat every DEMO_HEARTBEAT_MS and a temperature reading every DEMO_READING_MS,
 * as real lockers connected to the hub would. Without it the seed's lockers, marked online at seed
 * time, were marked offline by the hub's sweep seconds after start and the demo dashboard went red.
 * `tick` is one round (tests call it with their own clock); `stop` ends the timer.
 */
export function startDemoFleet(deps: AppDeps, everyMs = DEMO_HEARTBEAT_MS) {
  let running: Promise<unknown> = Promise.resolve();
  const round = async (): Promise<string[]> => {
    const now = deps.now();
    const lockers = await demoLockers(deps.db);
    const heard = await heartbeatMachines(
      deps.db,
      lockers.map((l) => l.id),
      now,
    );
    // A locker that was offline (the server was down a while) is back: consoles see it at once.
    const back = new Set(lockers.filter((l) => !l.online).map((l) => l.id));
    const live = liveOf(deps);
    for (const { machine } of heard) {
      if (!back.has(machine.id)) continue;
      live.publish({
        businessId: machine.businessId,
        machineId: machine.id,
        fleet: true,
        message: { action: 'statusUpdate', params: { machine, online: true, lastSeen: now } },
      });
    }
    await insertDemoReadings(
      deps.db,
      lockers
        .filter((l) => l.temperatureUpdated === null || now - l.temperatureUpdated >= DEMO_READING_MS)
        .map((l) => ({
          businessId: l.businessId,
          machineId: l.id,
          created: now,
          // A fridge-cool cabinet wandering between 18.5 and 20.1 °C.
          value: Math.round((18.5 + ((now / DEMO_READING_MS + l.id.charCodeAt(l.id.length - 1)) % 5) * 0.4) * 10) / 10,
        })),
    );
    return heard.map((r) => r.machine.id);
  };
  // One round at a time: two at once would both find a reading due and store it twice.
  const tick = (): Promise<string[]> => {
    const next = running.then(round);
    running = next.catch(() => undefined);
    return next;
  };
  const report = () => tick().catch((error) => deps.logger.warn('demo fleet report failed', { error: String(error) }));
  const timer = setInterval(report, everyMs);
  // The first round at once: lockers the last run left offline come back as the server starts.
  void report();
  return {
    tick,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
