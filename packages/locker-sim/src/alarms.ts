import { type Level, type MachineAlertCode, machineAlerts } from './protocol.ts';

/** The codes a locker raises itself (SPEC §8's EM_ codes); MP_ codes are the product's. */
const lockerCodes = (Object.keys(machineAlerts) as MachineAlertCode[]).filter((code) => code.startsWith('EM_'));

/** The levels the locker's codes have, each with its codes, in the catalogue's order. */
const codesByLevel = new Map<Level, MachineAlertCode[]>();
for (const code of lockerCodes) {
  const level = machineAlerts[code].level;
  codesByLevel.set(level, [...(codesByLevel.get(level) ?? []), code]);
}
const alarmLevels = [...codesByLevel.keys()];

const pick = <T>(items: readonly T[], random: () => number): T =>
  items[Math.min(items.length - 1, Math.floor(random() * items.length))] as T;

/**
 * A random alarm for `--random-alarms`: a level first (each as likely, so the few info codes show up as
 * often as the many errors), then one of the locker's codes of that level, sent with it. Each code
 * keeps the level core's catalogue gives it: a random jam is critical, a random scan note info.
 */
export function drawAlarm(random: () => number = Math.random): { code: MachineAlertCode; level: Level } {
  const level = pick(alarmLevels, random);
  return { code: pick(codesByLevel.get(level) ?? [], random), level };
}
