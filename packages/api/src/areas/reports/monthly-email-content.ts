import {
  countsByCodeText,
  formatMinutes,
  formatMonth,
  formatPence,
  isoMonth,
  type MonthlyBusinessStats,
  monthlyReportCsv,
} from '@medlocker/core';
import type { MailMessage } from '../../mail/mailer.ts';

/*
 * The monthly report email's words: plain text, a simple HTML table of the same, and the CSV. Figures
 * only (no patient is named); numbers as SPEC §9 shows them to people: pounds with 2 decimals, times as
 * hours up to 48 hours, then days with one decimal. Each figure is shown beside the month before.
 */

type Line = { label: string; value: (row: MonthlyBusinessStats) => string };
type Section = { title: string; lines: Line[] };

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
const withCodes = (counts: Record<string, number>) => {
  const total = sum(counts);
  return total === 0 ? '0' : `${total} (${countsByCodeText(counts, ' ')})`;
};
const channelNames: Record<string, string> = { sms: 'SMS', email: 'email', whatsapp: 'WhatsApp' };
const byChannel = (row: MonthlyBusinessStats, key: 'sent' | 'failed') => {
  const parts = Object.entries(row.messagesByChannel)
    .filter(([, c]) => c[key] > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([channel, c]) => `${channelNames[channel] ?? channel} ${c[key]}`);
  const total = Object.values(row.messagesByChannel).reduce((n, c) => n + c[key], 0);
  return parts.length === 0 ? String(total) : `${total} (${parts.join(', ')})`;
};
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

const sections: Section[] = [
  {
    title: 'Orders',
    lines: [
      { label: 'Added', value: (r) => String(r.ordersAdded) },
      { label: 'Loaded into machines', value: (r) => String(r.ordersLoaded) },
      { label: 'Collected', value: (r) => `${r.ordersCollected} (${r.collectedWithinWindow} within the window)` },
      { label: 'Expired', value: (r) => String(r.ordersExpired) },
      { label: 'Cancelled', value: (r) => String(r.ordersCancelled) },
      { label: 'Removed', value: (r) => String(r.ordersRemoved) },
    ],
  },
  {
    title: 'Pickup time (loaded to collected)',
    lines: [
      {
        label: 'Median',
        value: (r) => (r.medianPickupMinutes === null ? 'none collected' : formatMinutes(r.medianPickupMinutes)),
      },
      { label: 'Total', value: (r) => formatMinutes(r.totalPickupMinutes) },
    ],
  },
  {
    title: 'Payments and exemptions',
    lines: [
      { label: 'Paid by card', value: (r) => formatPence(r.paidAmount) },
      { label: 'Exemptions declared', value: (r) => withCodes(r.exemptionsByCode) },
      { label: 'PINs revealed by staff', value: (r) => String(r.pinReveals) },
    ],
  },
  {
    title: 'Patient messages',
    lines: [
      { label: 'Sent', value: (r) => byChannel(r, 'sent') },
      { label: 'Failed', value: (r) => byChannel(r, 'failed') },
    ],
  },
  {
    title: 'Machines',
    lines: [
      { label: 'Downtime', value: (r) => formatMinutes(r.machineDowntimeMinutes) },
      { label: 'Alarms', value: (r) => withCodes(r.alarmsByCode) },
    ],
  },
  {
    title: 'Patients',
    lines: [
      { label: 'At the start of the month', value: (r) => String(r.initialPatientCount) },
      { label: 'Change during the month', value: (r) => signed(r.patientDelta) },
    ],
  },
];

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A business name as part of a file name: letters and digits, the rest as single hyphens. */
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'business';

/**
 * The email (all but its recipients) for `rows`: the reported month and the 12 before it, oldest first
 * (reports/monthly-repository.ts's `monthlyRows`); the last row is the reported month.
 */
export function monthlyReportEmail(
  productName: string,
  businessName: string,
  rows: readonly MonthlyBusinessStats[],
): Omit<MailMessage, 'to'> {
  const row = rows[rows.length - 1];
  const before = rows[rows.length - 2];
  if (!row || !before) throw new Error('A monthly report needs its month and the month before');
  const month = formatMonth(row.year, row.month);
  const previous = formatMonth(before.year, before.month);
  const text = [
    `${businessName}: ${productName} monthly report for ${month}`,
    '',
    ...sections.flatMap((s) => [
      s.title,
      ...s.lines.map((l) => `  ${l.label}: ${l.value(row)} (${previous}: ${l.value(before)})`),
      '',
    ]),
    `The attached CSV has these figures for ${month} and the ${rows.length - 1} months before it, one line a month.`,
    'Pickup times and downtime are in minutes there, and amounts in pounds.',
  ].join('\n');
  const cell = (s: string, tag = 'td') => `<${tag} style="padding:4px 12px;text-align:left">${escapeHtml(s)}</${tag}>`;
  const html = [
    '<!doctype html><html lang="en-GB"><body style="font-family:sans-serif;color:#1a1a1a">',
    `<h1 style="font-size:20px">${escapeHtml(businessName)}: monthly report for ${escapeHtml(month)}</h1>`,
    '<table style="border-collapse:collapse">',
    `<thead><tr>${cell('', 'th')}${cell(month, 'th')}${cell(previous, 'th')}</tr></thead>`,
    ...sections.map(
      (s) =>
        `<tbody><tr><th colspan="3" scope="colgroup" style="padding:12px 12px 4px;text-align:left">${escapeHtml(s.title)}</th></tr>${s.lines
          .map((l) => `<tr>${cell(l.label, 'th')}${cell(l.value(row))}${cell(l.value(before))}</tr>`)
          .join('')}</tbody>`,
    ),
    '</table>',
    `<p>The attached CSV has these figures for ${escapeHtml(month)} and the ${rows.length - 1} months before it, one line a month.</p>`,
    '</body></html>',
  ].join('\n');
  return {
    subject: `${productName} monthly report: ${businessName}, ${month}`,
    text,
    html,
    attachments: [
      {
        filename: `monthly-report-${slug(businessName)}-${isoMonth(row.year, row.month)}.csv`,
        contentType: 'text/csv',
        content: monthlyReportCsv(rows),
      },
    ],
  };
}
