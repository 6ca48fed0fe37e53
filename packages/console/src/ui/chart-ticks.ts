/** Steps for counts and money (pence): 1, 2, 5, 10, 20, 50… */
export const decimalSteps: readonly number[] = Array.from({ length: 24 }, (_, i) => [1, 2, 5][i % 3] ?? 1).map(
  (d, i) => d * 10 ** Math.floor(i / 3),
);

/**
 * Steps for durations in minutes that read as round figures once formatMinutes shows them in hours to
 * one decimal (6 minutes is 0.1 hours) and, past 48 hours, in days.
 */
export const minuteSteps: readonly number[] = [
  6, 12, 30, 60, 120, 180, 360, 720, 1440, 2880, 4320, 7200, 10080, 20160, 43200, 86400, 172800,
];

/**
 * The y axis's ticks from 0 for data up to `max`: the smallest step of `steps` that needs at most
 * `most` intervals, and the top tick at or above `max`, so the highest label is never below the highest
 * point (a pickup time of 22 hours under an axis that stopped at "16.7 hours").
 */
export function yTicks(max: number, steps: readonly number[] = decimalSteps, most = 5): number[] {
  const top = Math.max(max, 0);
  const step = steps.find((s) => Math.ceil(top / s) <= most) ?? (steps[steps.length - 1] as number);
  const intervals = Math.max(1, Math.ceil(top / step));
  return Array.from({ length: intervals + 1 }, (_, i) => i * step);
}
