import {
  averagePickupMinutes,
  type Business,
  formatMinutes,
  formatMonth,
  formatPence,
  type MonthFigures,
} from '@medlocker/core';
import { type RpcOutput, rpc } from '../../api/client.ts';
import { decimalSteps, minuteSteps } from '../../ui/chart-ticks.ts';
import { chartColours } from '../../ui/MonthChart.tsx';
import type { MonthlyTableRow } from '../stats/MonthlyTable.tsx';

/* What the group comparison shows, worked out from the server's monthly figures. */

/** The figures the comparison chart can put side by side. */
export const measures = {
  collected: { label: 'Collected', of: (m: MonthFigures) => m.ordersCollected, format: String, steps: decimalSteps },
  added: { label: 'Orders added', of: (m: MonthFigures) => m.ordersAdded, format: String, steps: decimalSteps },
  paid: { label: 'Paid', of: (m: MonthFigures) => m.paidAmount, format: formatPence, steps: decimalSteps },
  pickup: { label: 'Average pickup', of: averagePickupMinutes, format: formatMinutes, steps: minuteSteps },
} as const;
export type Measure = keyof typeof measures;
export const measureOptions = Object.entries(measures).map(([id, m]) => ({ id, label: m.label }));

const shortMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Every business of the group, archived ones too (their months still count), by name. */
export async function allGroupBusinesses(groupId: string, signal: AbortSignal): Promise<Business[]> {
  const out: Business[] = [];
  let nextToken: string | null = null;
  do {
    const page: { businesses: Business[]; nextToken: string | null } = await rpc(
      'businesses',
      'listGroupedBusinesses',
      { groupId, archived: true, nextToken },
      { signal },
    );
    out.push(...page.businesses);
    nextToken = page.nextToken;
  } while (nextToken !== null);
  return out;
}

type Comparison = RpcOutput<'groupReports', 'listMonthlyStats'>;

/** The chart's series of one figure, the table's rows (newest month first) and the chart's summary. */
export function comparisonView(data: Comparison, measure: Measure) {
  const m = measures[measure];
  const months = data.months.map((x) => `${shortMonths[x.month - 1]} ${x.year}`);
  const series = data.businesses.map((b, i) => ({
    label: b.name,
    values: b.stats.map((s) => m.of(s)),
    colour: chartColours[i % chartColours.length] ?? '#000',
  }));
  const rows: (MonthlyTableRow & { businessName: string })[] = [];
  for (let i = data.months.length - 1; i >= 0; i--) {
    for (const b of data.businesses) {
      const s = b.stats[i];
      if (s) rows.push({ ...s, key: `${b.businessId}:${i}`, businessName: b.name });
    }
    const total = data.totals[i];
    if (total && data.businesses.length > 1) rows.push({ ...total, key: `total:${i}`, businessName: 'All chosen' });
  }
  const span = `${formatMonth(data.months[0]?.year ?? 0, data.months[0]?.month ?? 1)} to ${formatMonth(
    data.months.at(-1)?.year ?? 0,
    data.months.at(-1)?.month ?? 1,
  )}`;
  const sums = data.businesses.map((b) => `${b.name} ${m.format(b.stats.reduce((a, s) => a + (m.of(s) ?? 0), 0))}`);
  const summary =
    measure === 'pickup'
      ? `${span}: average pickup time per month for ${data.businesses.map((b) => b.name).join(', ')}.`
      : `${span}, ${m.label.toLowerCase()} in all: ${sums.join(', ')}.`;
  return { months, series, rows, summary, span };
}
