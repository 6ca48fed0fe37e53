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
import { shortMonth } from '../stats/MonthCharts.tsx';
import type { MonthlyTableRow } from '../stats/MonthlyTable.tsx';
import { t } from './i18n/index.ts';

/* What the group comparison shows, worked out from the server's monthly figures. */

/** The figures the comparison chart can put side by side. */
export const measures = {
  collected: { of: (m: MonthFigures) => m.ordersCollected, format: String, steps: decimalSteps },
  added: { of: (m: MonthFigures) => m.ordersAdded, format: String, steps: decimalSteps },
  paid: { of: (m: MonthFigures) => m.paidAmount, format: formatPence, steps: decimalSteps },
  pickup: { of: averagePickupMinutes, format: formatMinutes, steps: minuteSteps },
} as const;
export type Measure = keyof typeof measures;
/** The chart's choice of figure, in words. */
export const measureOptions = () =>
  (Object.keys(measures) as Measure[]).map((id) => ({ id, label: t(`groups.measure.${id}` as const) }));
/** The comparison chart's label: 'Collected per month by business'. */
export const measureChartLabel = (measure: Measure) => t(`groups.chart.${measure}` as const);

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
  const months = data.months.map(shortMonth);
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
    if (total && data.businesses.length > 1)
      rows.push({ ...total, key: `total:${i}`, businessName: t('groups.stats.allChosen') });
  }
  const span = t('groups.stats.span', {
    first: formatMonth(data.months[0]?.year ?? 0, data.months[0]?.month ?? 1),
    last: formatMonth(data.months.at(-1)?.year ?? 0, data.months.at(-1)?.month ?? 1),
  });
  const sums = data.businesses.map((b) =>
    t('groups.stats.sum', { name: b.name, total: m.format(b.stats.reduce((a, s) => a + (m.of(s) ?? 0), 0)) }),
  );
  const summary =
    measure === 'pickup'
      ? t('groups.summary.pickup', { span, names: data.businesses.map((b) => b.name).join(', ') })
      : t(`groups.summary.${measure}`, { span, sums: sums.join(', ') });
  return { months, series, rows, summary, span };
}
