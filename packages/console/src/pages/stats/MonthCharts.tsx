import { averagePickupMinutes, formatMinutes, formatPence, type MonthFigures } from '@medlocker/core';
import { useMemo } from 'react';
import { minuteSteps } from '../../ui/chart-ticks.ts';
import { chartColours, MonthChart, type MonthChartProps, type MonthSeries } from '../../ui/MonthChart.tsx';
import { t } from './i18n/index.ts';

/** A chart's month: 'Mar 2026'. */
export const shortMonth = (m: { year: number; month: number }) => t('stats.shortMonth', m);

/** A run of months in words: 'Apr 2025 to Mar 2026', or 'No months'. */
export const monthSpan = (months: readonly string[]) =>
  months.length === 0 ? t('stats.noMonths') : t('stats.span', { first: months[0], last: months.at(-1) });

const sum = (values: (number | null)[]) => values.reduce<number>((a, v) => a + (v ?? 0), 0);

/** 'Collected 25, Expired 3': each series' total over the months shown. */
const totals = (series: MonthSeries[], format: (n: number) => string = String) =>
  series.map((s) => t('stats.chart.total', { label: s.label, total: format(sum(s.values)) })).join(', ');

/**
 * The stats page's charts of a run of months (oldest first): orders by outcome, pickup time (median
 * and average), money paid, and exemptions by code. Each says in words what it shows; the monthly
 * table under them has every figure.
 */
export function MonthCharts({ figures }: { figures: readonly MonthFigures[] }) {
  const charts = useMemo(() => {
    const months = figures.map(shortMonth);
    const span = monthSpan(months);
    const outcomes: MonthSeries[] = (
      [
        [t('stats.chart.collected'), 'ordersCollected'],
        [t('stats.chart.expired'), 'ordersExpired'],
        [t('stats.chart.cancelled'), 'ordersCancelled'],
        [t('stats.chart.removed'), 'ordersRemoved'],
      ] as const
    ).map(([label, key], i) => ({
      label,
      values: figures.map((f) => f[key]),
      colour: chartColours[i] ?? '#000',
    }));
    const pickup: MonthSeries[] = [
      {
        label: t('stats.chart.median'),
        values: figures.map((f) => f.medianPickupMinutes),
        colour: chartColours[0] ?? '#000',
      },
      { label: t('stats.chart.average'), values: figures.map(averagePickupMinutes), colour: chartColours[1] ?? '#000' },
    ];
    const paid: MonthSeries[] = [
      { label: t('stats.chart.paid'), values: figures.map((f) => f.paidAmount), colour: chartColours[2] ?? '#000' },
    ];
    const codes = [...new Set(figures.flatMap((f) => Object.keys(f.exemptionsByCode)))].sort();
    const exemptions: MonthSeries[] = codes.map((code, i) => ({
      label: t('stats.chart.exemption', { code }),
      values: figures.map((f) => f.exemptionsByCode[code] ?? 0),
      colour: chartColours[i % chartColours.length] ?? '#000',
    }));
    const collected = sum(figures.map((f) => f.ordersCollected));
    const average = formatMinutes(Math.round(sum(figures.map((f) => f.totalPickupMinutes)) / (collected || 1)));
    // Each chart: its label, what it shows in words, its series and how its values read.
    const shown: Omit<MonthChartProps, 'months'>[] = [
      {
        label: t('stats.chart.outcomes'),
        summary: t('stats.chart.outcomesSummary', { span, totals: totals(outcomes) }),
        series: outcomes,
      },
      {
        label: t('stats.chart.pickup'),
        summary:
          collected === 0
            ? t('stats.chart.pickupNone', { span })
            : t('stats.chart.pickupSummary', { span, average, collected }),
        series: pickup,
        format: formatMinutes,
        steps: minuteSteps,
      },
      {
        label: t('stats.chart.payments'),
        summary: t('stats.chart.paymentsSummary', { span, paid: formatPence(sum(paid[0]?.values ?? [])) }),
        series: paid,
        format: formatPence,
      },
      {
        label: t('stats.chart.exemptions'),
        summary:
          codes.length === 0
            ? t('stats.chart.exemptionsNone', { span })
            : t('stats.chart.exemptionsSummary', { span, totals: totals(exemptions) }),
        series: exemptions,
      },
    ];
    return { months, shown };
  }, [figures]);
  return (
    <div className="chart-grid">
      {charts.shown.map((chart) => (
        <MonthChart key={chart.label} months={charts.months} {...chart} />
      ))}
    </div>
  );
}
