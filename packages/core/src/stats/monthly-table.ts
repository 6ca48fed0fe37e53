import { csvText } from '../csv/csv-text.ts';
import { formatMonth } from '../format/date.ts';
import { formatMinutes } from '../format/duration.ts';
import { formatPence } from '../format/money.ts';
import type { MonthlyBusinessStats } from './stats.ts';

/** A month's figures, of one business or added up over several (the group's totals). */
export type MonthFigures = Omit<MonthlyBusinessStats, 'businessId'>;

/** The columns of the monthly table, as the stats page, the group comparison and their CSV name them. */
export const monthlyStatsColumns = [
  'Month',
  'Orders added',
  'Loaded',
  'Collected',
  'Collected in time',
  'Expired',
  'Cancelled',
  'Removed',
  'Median pickup',
  'Average pickup',
  'Paid',
  'Exemptions',
  'PIN reveals',
  'Messages sent',
  'Messages failed',
  'Machine downtime',
  'Alarms',
] as const;

const channelNames: Record<string, string> = { sms: 'SMS', email: 'Email', whatsapp: 'WhatsApp' };

/** `{"A": 3, "F": 1}` → '4 (A 3, F 1)'; nothing → '0'. Codes sorted, so a month always reads the same. */
const byCode = (counts: Record<string, number>, name: (key: string) => string = (k) => k): string => {
  const entries = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return entries.length === 0 ? '0' : `${total} (${entries.map(([k, n]) => `${name(k)} ${n}`).join(', ')})`;
};

/** The average minutes from load to collection of a month; null when nothing was collected. */
export const averagePickupMinutes = (m: MonthFigures): number | null =>
  m.ordersCollected === 0 ? null : Math.round(m.totalPickupMinutes / m.ordersCollected);

/** One month's cells, SPEC §9 formatted: pounds with 2 decimals, durations as hours up to 48 then days. */
export function monthlyStatsCells(m: MonthFigures): string[] {
  const average = averagePickupMinutes(m);
  const channels = Object.entries(m.messagesByChannel);
  const sent = Object.fromEntries(channels.map(([c, n]) => [c, n.sent]));
  const failed = Object.fromEntries(channels.map(([c, n]) => [c, n.failed]));
  const channel = (c: string) => channelNames[c] ?? c;
  return [
    formatMonth(m.year, m.month),
    String(m.ordersAdded),
    String(m.ordersLoaded),
    String(m.ordersCollected),
    String(m.collectedWithinWindow),
    String(m.ordersExpired),
    String(m.ordersCancelled),
    String(m.ordersRemoved),
    m.medianPickupMinutes === null ? '–' : formatMinutes(m.medianPickupMinutes),
    average === null ? '–' : formatMinutes(average),
    formatPence(m.paidAmount),
    byCode(m.exemptionsByCode),
    String(m.pinReveals),
    byCode(sent, channel),
    byCode(failed, channel),
    formatMinutes(m.machineDowntimeMinutes),
    byCode(m.alarmsByCode),
  ];
}

/**
 * The CSV of monthly rows as the table shows them (the same columns, in the order given, with a
 * `Business` column first when `businessName` is given), CRLF line ends, formula cells defused.
 */
export function monthlyStatsCsv(
  rows: readonly (MonthFigures & { businessName?: string })[],
  options: { withBusiness?: boolean } = {},
): string {
  const header = options.withBusiness ? ['Business', ...monthlyStatsColumns] : [...monthlyStatsColumns];
  const lines = rows.map((r) =>
    options.withBusiness ? [r.businessName ?? '', ...monthlyStatsCells(r)] : monthlyStatsCells(r),
  );
  return csvText(header, lines);
}
