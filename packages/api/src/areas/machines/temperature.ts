import { formatTemperature, TEMPERATURE_WINDOW_MS, temperatureRange } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import { liveOf } from '../../live/live.ts';
import { resolveByLocker } from './alarms.ts';
import { publishRecorded, type RecordedEvent, recordMachineEvent } from './events.ts';
import { temperatureAlertsOn, updateTemperatureAverages } from './locker-repository.ts';
import type { LockerMachine } from './presence.ts';
import { findMachine } from './repository.ts';

/**
 * Recomputes machines' temperatureStatus from their last 3 hours of readings, in one transaction. An
 * excursion starts when the average leaves the allowed range (it was inside, or unknown, before): then
 * MP_0001 with the average is raised, if the business has temperature alerts on. One alarm per
 * excursion, not per batch. Averages, the excursion test and the update are one statement: the hub
 * recomputes up to 1,000 machines a second with 10,000 lockers, and reading every machine row back and
 * sending a VALUES list of them kept its event loop busy 6–7 ms per 500 machines.
 */
export async function updateTemperatureStatuses(deps: AppDeps, machines: LockerMachine[], now: number): Promise<void> {
  if (machines.length === 0) return;
  const { min, max } = temperatureRange;
  const recorded: RecordedEvent[] = [];
  const averages = await deps.db.transaction().execute(async (tx) => {
    const averages = await updateTemperatureAverages(tx, machines, {
      now,
      windowMs: TEMPERATURE_WINDOW_MS,
      min,
      max,
    });
    for (const a of averages) {
      if (!a.started || !(await temperatureAlertsOn(tx, a.businessId))) continue;
      const found = await findMachine(tx, a.machineId);
      if (!found) continue;
      recorded.push(
        await recordMachineEvent(tx, deps, found, {
          code: 'MP_0001',
          message: `Average temperature ${formatTemperature(a.average)} over the last 3 hours, outside ${min}–${max}°C`,
          data: { average: a.average, min, max },
          created: now,
        }),
      );
    }
    // A machine whose average is back in the band: its temperature alarm is over.
    const back = averages.filter((a) => a.average >= min && a.average <= max).map((a) => a.machineId);
    recorded.push(...(await resolveByLocker(tx, deps, back, 'MP_0001', 'the 3-hour average is back in the band')));
    return averages;
  });
  const live = liveOf(deps);
  const tests = new Set(machines.filter((m) => m.isTest).map((m) => m.machineId));
  for (const a of averages) {
    live.publish({
      businessId: a.businessId,
      machineId: a.machineId,
      fleet: !tests.has(a.machineId),
      message: {
        action: 'temperature',
        params: {
          machineId: a.machineId,
          temperatureStatus: { average: a.average, lastExcursionAt: a.lastExcursionAt, updated: now },
        },
      },
    });
  }
  for (const r of recorded) publishRecorded(deps, r);
}
