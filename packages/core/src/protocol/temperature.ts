import type { Reading } from './actions.ts';

/**
 * The temperature a locker must keep its medicines at, in °C, judged on the 3-hour average (SPEC §9).
 * Lockers hold medicines stored at room temperature, not fridge lines. The upper bound is 25 °C, the
 * limit of the most common storage statement ('Do not store above 25 °C', EMA guideline on declaration
 * of storage conditions, CPMP/QWP/609/96 Rev 2) and the ceiling UK pharmacy guidance sets for ambient
 * storage areas (NHS Specialist Pharmacy Service and RPS guidance on room-temperature monitoring). The
 * lower bound is 8 °C: below it the locker is at fridge temperatures (2–8 °C), which 'Do not
 * refrigerate' products must avoid. See docs/LOCKER-PROTOCOL.md.
 */
export const temperatureRange = { min: 8, max: 25 } as const;

/** The window the average, and so an excursion, is judged over (SPEC §9: 'the last 3 hours'). */
export const TEMPERATURE_WINDOW_MS = 3 * 60 * 60 * 1000;

/** Mean of the readings within the window ending at `now`; null when there are none. */
export function averageTemperature(readings: readonly Reading[], now: number): number | null {
  let sum = 0;
  let count = 0;
  for (const r of readings) {
    if (r.created > now - TEMPERATURE_WINDOW_MS && r.created <= now) {
      sum += r.value;
      count++;
    }
  }
  return count === 0 ? null : sum / count;
}

/** True when an average lies outside the allowed range. */
export const isExcursion = (average: number): boolean =>
  average < temperatureRange.min || average > temperatureRange.max;
