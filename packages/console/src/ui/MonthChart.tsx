import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { decimalSteps, yTicks } from './chart-ticks.ts';
import { t } from './i18n/index.ts';

export type MonthSeries = {
  label: string;
  /** One value per month, oldest first; null where there is nothing to plot (no collections). */
  values: (number | null)[];
  colour: string;
};

export type MonthChartProps = {
  /** The chart's title (shown) and the name screen readers hear. */
  label: string;
  /** What the chart shows, in words: read instead of the canvas. */
  summary: string;
  /** The months' short labels ('Oct 2026'), oldest first. */
  months: string[];
  series: MonthSeries[];
  /** The y axis's and the legend's numbers (e.g. pounds, hours). */
  format?: (value: number) => string;
  /** The y axis's steps (chart-ticks.ts): minuteSteps for durations; else 1, 2, 5, 10… */
  steps?: readonly number[];
  height?: number;
};

/** Colours told apart by people with the common colour-vision deficiencies (Okabe–Ito). */
export const chartColours = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];

/**
 * Figures month by month (uPlot, canvas): a line with a marked point per month for each series. The
 * canvas is hidden from screen readers and takes no focus: `summary` is read instead, and the monthly
 * table beside it is the keyboard-navigable equivalent with every figure.
 */
export function MonthChart({
  label,
  summary,
  months,
  series,
  format = String,
  steps = decimalSteps,
  height = 240,
}: MonthChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const xs = months.map((_, i) => i);
    // Ticks chosen here, not by uPlot: its splits of minutes stopped the axis below the highest point.
    const ticks = yTicks(Math.max(0, ...series.flatMap((s) => s.values.map((v) => v ?? 0))), steps);
    const top = ticks[ticks.length - 1] ?? 1;
    const plot = new uPlot(
      {
        width: box.clientWidth || 600,
        height,
        scales: {
          x: { time: false, range: [-0.5, Math.max(months.length - 0.5, 0.5)] },
          y: { range: [0, top] },
        },
        series: [
          { label: t('ui.chart.month'), value: (_u, i) => (i === null ? '–' : (months[i] ?? '–')) },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.colour,
            width: 2,
            points: { show: true, size: 7, fill: s.colour, stroke: s.colour },
            value: (_u: uPlot, v: number | null) => (v === null ? '–' : format(v)),
          })),
        ],
        axes: [
          { values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? (months[i] ?? '') : '')), incrs: [1] },
          { splits: () => ticks, values: (_u, splits) => splits.map((v) => format(v)), size: 80 },
        ],
        legend: { show: true },
      },
      [xs, ...series.map((s) => s.values)],
      box,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: box.clientWidth || 600, height }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [months, series, format, steps, height]);

  return (
    <figure className="chart" aria-label={label}>
      <figcaption>
        <strong className="chart__title">{label}</strong>
        <span className="visually-hidden"> {summary}</span>
      </figcaption>
      <div ref={boxRef} className="chart__plot" aria-hidden="true" />
    </figure>
  );
}
