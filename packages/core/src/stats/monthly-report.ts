import { csvText } from '../csv/csv-text.ts';
import { penceToAmountText } from '../format/money.ts';
import { exemptionCodes } from '../order/exemption-code.ts';
import type { MonthlyBusinessStats } from './stats.ts';

/*
 * The monthly report's CSV (reports/sendMonthlyEmail): one line per month, oldest first, the
 * reported month last, so a spreadsheet compares it with the year before. Cells are plain numbers a
 * spreadsheet can sum and chart, with the unit in the header: pounds with 2 decimals ("1234.56" under
 * "Paid by card (£)"), durations in whole minutes. The email's text shows the same figures as SPEC §9
 * says people read them (£1,234.56; hours up to 48, then days).
 */

/** How many months before the reported one the CSV carries, for comparison. */
export const monthlyReportHistoryMonths = 12;

const channels = [
  ['sms', 'SMS'],
  ['email', 'Email'],
  ['whatsapp', 'WhatsApp'],
] as const;

/** The CSV's header: the month, then every figure of {@link MonthlyBusinessStats}. */
export const monthlyReportColumns = [
  'Month',
  'Orders added',
  'Orders loaded',
  'Orders collected',
  'Collected within window',
  'Orders expired',
  'Orders cancelled',
  'Orders removed',
  'Median pickup (minutes)',
  'Total pickup (minutes)',
  'Paid by card (£)',
  'Exemptions declared',
  ...exemptionCodes.map((code) => `Exemption ${code}`),
  'PIN reveals',
  'Patient messages sent',
  ...channels.flatMap(([, label]) => [`${label} sent`, `${label} failed`]),
  'Machine downtime (minutes)',
  'Alarms',
  'Alarms by code',
  'Patients at start of month',
  'Patient change',
] as const;

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** Counts by code as one cell, codes in order: "EM_0001: 2; EM_0003: 1" (empty when none). */
export const countsByCodeText = (counts: Record<string, number>, separator = ': '): string =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, n]) => `${code}${separator}${n}`)
    .join('; ');

/** A month as YYYY-MM. */
export const isoMonth = (year: number, month: number): string => `${year}-${String(month).padStart(2, '0')}`;

/** One month's cells, in {@link monthlyReportColumns}' order. */
export function monthlyReportCells(row: MonthlyBusinessStats): string[] {
  const channel = (key: string) => row.messagesByChannel[key] ?? { sent: 0, failed: 0 };
  return [
    isoMonth(row.year, row.month),
    row.ordersAdded,
    row.ordersLoaded,
    row.ordersCollected,
    row.collectedWithinWindow,
    row.ordersExpired,
    row.ordersCancelled,
    row.ordersRemoved,
    row.medianPickupMinutes ?? '',
    row.totalPickupMinutes,
    penceToAmountText(row.paidAmount),
    sum(row.exemptionsByCode),
    ...exemptionCodes.map((code) => row.exemptionsByCode[code] ?? 0),
    row.pinReveals,
    row.notificationsSent,
    ...channels.flatMap(([key]) => [channel(key).sent, channel(key).failed]),
    row.machineDowntimeMinutes,
    sum(row.alarmsByCode),
    countsByCodeText(row.alarmsByCode),
    row.initialPatientCount,
    row.patientDelta,
  ].map(String);
}

/**
 * The CSV (csvText: quoted and defused text cells; the alarm codes come from the lockers), one line per
 * row in the order given; a plain number ("-3", a patient change) stays a number the sheet can sum.
 */
export const monthlyReportCsv = (rows: readonly MonthlyBusinessStats[]): string =>
  csvText(monthlyReportColumns, rows.map(monthlyReportCells));
