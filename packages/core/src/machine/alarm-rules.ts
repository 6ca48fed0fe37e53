import { alarmTemplateCodes } from '../errors/levels.ts';

/*
 * Critical alarms: which codes are acknowledged, escalated and resolved (docs/decisions/machines.md,
 * "Alarms: acknowledged, escalated, resolved"). No schema here: the console's dashboard reads it.
 */

/**
 * The codes that open an alarm someone must handle: every code with an alarm message (SPEC §3: an
 * item left in the collector, the collector not empty, mains power, the two jams, the alarm, a
 * temperature excursion) and the locker's other critical codes (booted during a mains failure,
 * shut down). Out of order (MP_0003) is not: staff set it themselves, or the hub for a reason it names.
 */
export const criticalAlarmCodes = [...alarmTemplateCodes, 'EM_0012', 'EM_0013'] as const;
export type CriticalAlarmCode = (typeof criticalAlarmCodes)[number];

const critical = new Set<string>(criticalAlarmCodes);
export const isCriticalAlarmCode = (code: string): code is CriticalAlarmCode => critical.has(code);

/** open → acknowledged (a person holds it) → resolved (the locker or a person said it is over). */
export const alarmStates = ['open', 'acknowledged', 'resolved'] as const;

/** Why the person acknowledging holds the alarm: a fixed list, with a note in their own words. */
export const alarmReasons = {
  attending: 'Going to the locker',
  remote: 'Handling it remotely',
  engineer: 'Engineer called out',
  known: 'Known issue, being fixed',
  falseAlarm: 'False alarm',
  other: 'Other (see the note)',
} as const;
export const alarmReasonKeys = Object.keys(alarmReasons) as (keyof typeof alarmReasons)[];

/** How an alarm was resolved: the locker said it cleared (or the temperature came back), or a person. */
export type AlarmResolvedHow = 'locker' | 'person';

/**
 * What the locker sends to clear each code: a MachineEvent with the same code and `data.cleared: true`
 * (docs/LOCKER-PROTOCOL.md, MachineEvent); a temperature excursion clears itself when the machine's
 * 3-hour average is back in the band.
 */
export const alarmClearedBy = (code: string): 'temperature' | 'clearedEvent' =>
  code === 'MP_0001' ? 'temperature' : 'clearedEvent';

/** Minutes an unacknowledged alarm waits before each escalation step, unless the business sets another. */
export const defaultAlarmEscalationMinutes = 15;
/** The most a business may set: a day. */
export const maxAlarmEscalationMinutes = 1440;

/** 0: the business's keyholders (when raised); 1: the group's contacts; 2: support. */
export const alarmEscalationLevels = ['Keyholders', 'Group contacts', 'Support'] as const;
export const lastEscalationLevel = 2;

/** An alarm's name in words: 'MainsPowerFailure' → 'Mains power failure'. */
export const alarmNameInWords = (name: string): string => {
  const w = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/** The part of an alarm that says who holds it. */
type Holding = {
  acknowledged: { by: { displayName: string }; reason: keyof typeof alarmReasons; note: string } | null;
  escalationLevel: number;
};

/** Who holds an alarm, or how far it has gone while nobody does (the console's panel and the cli's list). */
export function alarmHolder(a: Holding): string {
  if (a.acknowledged) {
    const note = a.acknowledged.note ? ` (${a.acknowledged.note})` : '';
    return `Acknowledged by ${a.acknowledged.by.displayName}: ${alarmReasons[a.acknowledged.reason]}${note}`;
  }
  const told = alarmEscalationLevels[a.escalationLevel] ?? 'Support';
  return `Open, nobody holds it; told: ${told.toLowerCase()}`;
}
