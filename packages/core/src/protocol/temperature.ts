import type { Reading } from './actions.ts';

/**
 * The temperature a locker must keep its medicines at, in °C, judged on the 3-hour average (SPEC §9).
 * Lockers hold medicines stored at room ("ambient") temperature, not fridge lines. Manufacturers define
 * ambient storage anywhere between 8 and 30 °C, and UK guidance asks for storage areas held at
 * 15–25 °C, the band that suits every ambient medicine: NHS Specialist Pharmacy Service, "Storing
 * medicines at ambient temperatures"; General Pharmaceutical Council, "Storing medicines safely and
 * appropriately". 25 °C is also the limit of the most common label statement, "Do not store above
 * 25 °C". See docs/LOCKER-PROTOCOL.md, "Temperature".
 */
export const temperatureRange = { min: 15, max: 25 } as const;

/** The window the average, and so an excursion, is judged over (SPEC §9: 'the last 3 hours'). */
export const TEMPERATURE_WINDOW_MS = 3 * 60 * 60 * 1000;
/**
 * How far ahead of the hub's clock a reading's time may be (a locker's clock drifts between two
 * BootNotifications); a reading further ahead is refused with TypeConstraintViolation and the hub's time.
 */
export const MAX_READING_AHEAD_MS = 5 * 60 * 1000;

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
