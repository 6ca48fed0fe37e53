import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

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
  height?: number;
};

/** Colours told apart by people with the common colour-vision deficiencies (Okabe–Ito). */
export const chartColours = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'];

/**
 * Figures month by month (uPlot, canvas): a line with a marked point per month for each series. The
 * canvas is hidden from screen readers and takes no focus: `summary` is read instead, and the monthly
 * table beside it is the keyboard-navigable equivalent with every figure.
 */
export function MonthChart({ label, summary, months, series, format = String, height = 240 }: MonthChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const xs = months.map((_, i) => i);
    const plot = new uPlot(
      {
        width: box.clientWidth || 600,
        height,
        scales: {
          x: { time: false, range: [-0.5, Math.max(months.length - 0.5, 0.5)] },
          y: { range: (_u, _lo, hi) => [0, Math.max(hi ?? 0, 1) * 1.1] },
        },
        series: [
          { label: 'Month', value: (_u, i) => (i === null ? '–' : (months[i] ?? '–')) },
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
          { values: (_u, splits) => splits.map((v) => format(v)), size: 80 },
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
  }, [months, series, format, height]);

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
