import { limits } from '../limits.ts';

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/**
 * A duration in minutes as SPEC §9 wants: hours up to 48 hours, beyond that days with one decimal.
 * Hours show at most one decimal, a whole number without it ('1 hour', '1.5 hours', '48 hours');
 * days always show one ('2.1 days', '3.0 days'). Negative input is treated as 0.
 */
export function formatMinutes(minutes: number): string {
  const safe = Math.max(0, minutes);
  const hours = safe / 60;
  if (hours <= limits.durationHoursUpTo) {
    const h = oneDecimal(hours);
    return `${h} ${h === 1 ? 'hour' : 'hours'}`;
  }
  return `${(hours / 24).toFixed(1)} days`;
}
