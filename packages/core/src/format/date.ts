/** A moment (ms since the epoch) or a calendar date written YYYY-MM-DD. */
export type DateInput = number | string;

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

const londonParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const londonClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/**
 * Year, month (1–12) and day of a date input. A timestamp is read on the London calendar (a
 * collection at 00:30 BST is that day, not the day before in UTC); a YYYY-MM-DD string is already a
 * calendar day and is taken as written. Throws on anything else: a caller bug, not user input.
 */
function calendarDay(input: DateInput): { year: number; month: number; day: number } {
  if (typeof input === 'string') {
    const m = isoDate.exec(input);
    if (!m) throw new RangeError(`Not a YYYY-MM-DD date: ${input}`);
    return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  }
  const parts = londonParts.formatToParts(input);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const two = (n: number) => String(n).padStart(2, '0');

/** DD-MM-YYYY: `formatDate('2024-03-05')` → '05-03-2024'. */
export function formatDate(input: DateInput): string {
  const { year, month, day } = calendarDay(input);
  return `${two(day)}-${two(month)}-${year}`;
}

/** DD MMMM YYYY: `formatLongDate('2024-03-05')` → '05 March 2024'. */
export function formatLongDate(input: DateInput): string {
  const { year, month, day } = calendarDay(input);
  return `${two(day)} ${monthNames[month - 1] ?? ''} ${year}`;
}

/** The London calendar day of a moment as YYYY-MM-DD (what the import and date fields store). */
export function toIsoDate(input: DateInput): string {
  const { year, month, day } = calendarDay(input);
  return `${year}-${two(month)}-${two(day)}`;
}

/** The London wall-clock time of a moment, 24-hour: HH:mm:ss, or HH:mm without `seconds`. */
export function formatTime(at: number, options: { seconds?: boolean } = {}): string {
  const parts = londonClock.formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  const hm = `${part('hour')}:${part('minute')}`;
  return options.seconds === false ? hm : `${hm}:${part('second')}`;
}

/** DD-MM-YYYY HH:mm:ss of a moment, in London time, whatever the browser's time zone. */
export const formatDateTime = (at: number): string => `${formatDate(at)} ${formatTime(at)}`;
