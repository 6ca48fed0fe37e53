import { alarmTemplateCodes, type levels } from '../errors/levels.ts';
import { temperatureRange } from '../protocol/temperature.ts';
import type { MachineEvent } from './machine-event.ts';

/* Which events are alarms and which are still active: no schema here, the console's dashboard reads it. */

type Level = (typeof levels)[number];

/** How far back an alarm counts as active on the dashboard: a day. */
export const ACTIVE_ALARM_MS = 24 * 60 * 60 * 1000;

/** Levels that make any event an alarm, whatever its code. */
export const alarmLevels = ['critical', 'error'] as const satisfies readonly Level[];

const alarmCodes = new Set<string>(alarmTemplateCodes);
const levelsOfAlarm = new Set<string>(alarmLevels);

/**
 * An event the dashboard counts as an alarm: its code has an alarm message template (SPEC §3), or it
 * is critical or error. The api's fleet summary selects the same in SQL from these two lists.
 */
export const isAlarm = (e: Pick<MachineEvent, 'code' | 'level'>): boolean =>
  alarmCodes.has(e.code) || levelsOfAlarm.has(e.level);

/** The part of a machine that can clear its alarms: its temperature status (3-hour average). */
export type AlarmClearing = {
  temperatureStatus: { average: number; lastExcursionAt: number | null } | null;
};

/** A machine's temperature is out of the allowed band now (its 3-hour average, SPEC §9). */
export const inTemperatureExcursion = (status: AlarmClearing['temperatureStatus']): boolean =>
  status !== null && (status.average < temperatureRange.min || status.average > temperatureRange.max);

/**
 * An alarm that is still active at `now`: raised within {@link ACTIVE_ALARM_MS}, and not cleared. A
 * temperature excursion (MP_0001) clears when its machine's 3-hour average is back in the band, and
 * belongs to the machine's current excursion only (raised at or after `lastExcursionAt`): the one
 * condition the product sees end. Other alarms stay active for the day unless their critical alarm was
 * resolved (see {@link isResolvedAlarmEvent}). The dashboard's count, its list, and the api's fleet
 * summary all decide with this.
 * Without `machine` (not known to the caller) an excursion counts as not cleared.
 */
export const isActiveAlarm = (
  e: Pick<MachineEvent, 'code' | 'level' | 'created'>,
  now: number,
  machine?: AlarmClearing,
): boolean => {
  if (e.created < now - ACTIVE_ALARM_MS || !isAlarm(e)) return false;
  if (e.code !== 'MP_0001' || machine === undefined) return true;
  const status = machine.temperatureStatus;
  return inTemperatureExcursion(status) && e.created >= (status?.lastExcursionAt ?? 0);
};

/** The last time a machine's critical alarm of a code was resolved (the alarms table, MP_0015). */
export type AlarmResolution = { machineId: string; code: string; resolvedAt: number };

/**
 * An alarm event that a resolution has ended: same machine and code, raised at or before the alarm was
 * resolved (by the locker or by a person). A repeat raised while the alarm was open belonged to it; one
 * raised after is a new alarm and stays.
 */
export const isResolvedAlarmEvent = (
  e: Pick<MachineEvent, 'machineId' | 'code' | 'created'>,
  resolutions: readonly AlarmResolution[],
): boolean => resolutions.some((r) => r.machineId === e.machineId && r.code === e.code && e.created <= r.resolvedAt);

/** The resolution an AlarmResolved event (MP_0015) records: its machine and the alarm's code, at its time. */
export const alarmResolutionOf = (e: Pick<MachineEvent, 'machineId' | 'code' | 'created' | 'data'>) =>
  e.code === 'MP_0015' && typeof e.data?.code === 'string'
    ? ({ machineId: e.machineId, code: e.data.code, resolvedAt: e.created } satisfies AlarmResolution)
    : undefined;
