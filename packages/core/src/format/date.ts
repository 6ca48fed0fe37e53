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

/** A calendar month as MMMM YYYY (the long date without its day): `formatMonth(2024, 3)` → 'March 2024'. */
export const formatMonth = (year: number, month: number): string => `${monthNames[month - 1] ?? ''} ${year}`;

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

/** The London calendar month (1–12) and year of a moment: 00:30 BST on 1 November is November. */
export function londonMonthOf(at: number): { year: number; month: number } {
  const { year, month } = calendarDay(at);
  return { year, month };
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

/**
 * The first moment (ms since the epoch) of a London calendar day written YYYY-MM-DD: 00:00 GMT in
 * winter, 23:00 UTC the day before in summer. London changes its clocks at 01:00 UTC, never at midnight,
 * so every London day has exactly one midnight; the days of a change are 23 or 25 hours long.
 * `londonDayStart(day, 1)` is the start of the next day: the exclusive end of `day`.
 */
export function londonDayStart(input: string, addDays = 0): number {
  const { year, month, day } = calendarDay(input);
  const utcMidnight = Date.UTC(year, month - 1, day + addDays);
  // London's offset from UTC at that moment (0 or 1 hour), read from its wall clock.
  const wall = calendarDay(utcMidnight);
  const [hour, minute] = formatTime(utcMidnight, { seconds: false }).split(':').map(Number);
  const offset = Date.UTC(wall.year, wall.month - 1, wall.day, hour, minute) - utcMidnight;
  return utcMidnight - offset;
}
