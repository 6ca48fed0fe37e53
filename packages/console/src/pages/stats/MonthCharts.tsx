import { averagePickupMinutes, formatMinutes, formatPence, type MonthFigures } from '@medlocker/core';
import { useMemo } from 'react';
import { minuteSteps } from '../../ui/chart-ticks.ts';
import { chartColours, MonthChart, type MonthChartProps, type MonthSeries } from '../../ui/MonthChart.tsx';

const shortMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const shortMonth = (m: { year: number; month: number }) => `${shortMonths[m.month - 1]} ${m.year}`;

const sum = (values: (number | null)[]) => values.reduce<number>((a, v) => a + (v ?? 0), 0);

/** 'Collected 25, Expired 3': each series' total over the months shown. */
const totals = (series: MonthSeries[], format: (n: number) => string = String) =>
  series.map((s) => `${s.label} ${format(sum(s.values))}`).join(', ');

/**
 * The stats page's charts of a run of months (oldest first): orders by outcome, pickup time (median
 * and average), money paid, and exemptions by code. Each says in words what it shows; the monthly
 * table under them has every figure.
 */
export function MonthCharts({ figures }: { figures: readonly MonthFigures[] }) {
  const charts = useMemo(() => {
    const months = figures.map(shortMonth);
    const span = months.length === 0 ? 'No months' : `${months[0]} to ${months.at(-1)}`;
    const outcomes: MonthSeries[] = (
      [
        ['Collected', 'ordersCollected'],
        ['Expired', 'ordersExpired'],
        ['Cancelled', 'ordersCancelled'],
        ['Removed', 'ordersRemoved'],
      ] as const
    ).map(([label, key], i) => ({
      label,
      values: figures.map((f) => f[key]),
      colour: chartColours[i] ?? '#000',
    }));
    const pickup: MonthSeries[] = [
      { label: 'Median', values: figures.map((f) => f.medianPickupMinutes), colour: chartColours[0] ?? '#000' },
      { label: 'Average', values: figures.map(averagePickupMinutes), colour: chartColours[1] ?? '#000' },
    ];
    const paid: MonthSeries[] = [
      { label: 'Paid', values: figures.map((f) => f.paidAmount), colour: chartColours[2] ?? '#000' },
    ];
    const codes = [...new Set(figures.flatMap((f) => Object.keys(f.exemptionsByCode)))].sort();
    const exemptions: MonthSeries[] = codes.map((code, i) => ({
      label: `Exemption ${code}`,
      values: figures.map((f) => f.exemptionsByCode[code] ?? 0),
      colour: chartColours[i % chartColours.length] ?? '#000',
    }));
    const collected = sum(figures.map((f) => f.ordersCollected));
    const minutes = sum(figures.map((f) => f.totalPickupMinutes));
    // Each chart: its label, what it shows in words, its series and how its values read.
    const shown: Omit<MonthChartProps, 'months'>[] = [
      {
        label: 'Orders per month by outcome',
        summary: `${span}, orders by outcome in all: ${totals(outcomes)}.`,
        series: outcomes,
      },
      {
        label: 'Pickup time',
        summary:
          collected === 0
            ? `${span}: no collections, so no pickup times.`
            : `${span}: on average ${formatMinutes(Math.round(minutes / collected))} from loading to collection over ${collected} collections.`,
        series: pickup,
        format: formatMinutes,
        steps: minuteSteps,
      },
      {
        label: 'Payments',
        summary: `${span}: ${formatPence(sum(paid[0]?.values ?? []))} paid by card in all.`,
        series: paid,
        format: formatPence,
      },
      {
        label: 'Exemptions by code',
        summary:
          codes.length === 0
            ? `${span}: no exemptions declared.`
            : `${span}, exemptions declared by code: ${totals(exemptions)}.`,
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
