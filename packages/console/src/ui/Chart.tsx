import { formatDate, formatDateTime, formatTime } from '@medlocker/core';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { t } from './i18n/index.ts';

export type ChartPoint = { at: number; value: number };

export type LineChartProps = {
  /** Names the chart for screen readers; `summary` says what it shows in words. */
  label: string;
  summary: string;
  points: ChartPoint[];
  unit: string;
  /** The allowed band, shaded; points outside it are marked. */
  band?: { min: number; max: number };
  height?: number;
};

/**
 * The time axis on London's clock, 24-hour, as the rest of the console: HH:mm at each tick, with the
 * date (DD-MM-YYYY) under the first tick and under each tick on a new day.
 */
const timeTicks = (_u: uPlot, splits: number[]) => {
  const days = splits.map((at) => formatDate(at));
  return splits.map((at, i) => {
    const time = formatTime(at, { seconds: false });
    return i === 0 || days[i - 1] !== days[i] ? `${time}\n${days[i]}` : time;
  });
};

/** Ticks fall on London's whole hours and minutes, whatever the browser's time zone. */
const londonDate = (ms: number) => uPlot.tzDate(new Date(ms), 'Europe/London');

const colours = { line: '#005eb8', band: 'rgba(0, 112, 60, 0.12)', bandEdge: '#00703c', out: '#b0201a' };

/**
 * The readings as uPlot's data and series; with a band, its upper and lower limits and the readings
 * outside it as series of their own (the red points).
 */
function plotData(points: LineChartProps['points'], unit: string, band: LineChartProps['band']) {
  const xs = points.map((p) => p.at);
  const ys = points.map((p) => p.value);
  const outside = band ? ys.map((v) => (v < band.min || v > band.max ? v : null)) : ys.map(() => null);
  const data: uPlot.AlignedData = band ? [xs, ys, xs.map(() => band.max), xs.map(() => band.min), outside] : [xs, ys];
  const series: uPlot.Series[] = [
    { label: t('ui.chart.time'), value: (_u, at) => (at === null ? '--' : formatDateTime(at)) },
    { label: t('ui.chart.reading', { unit }), stroke: colours.line, width: 2 },
    ...(band
      ? [
          {
            label: t('ui.chart.upperLimit', { unit }),
            stroke: colours.bandEdge,
            width: 1,
            dash: [4, 4],
            points: { show: false },
          },
          {
            label: t('ui.chart.lowerLimit', { unit }),
            stroke: colours.bandEdge,
            width: 1,
            dash: [4, 4],
            points: { show: false },
          },
          {
            label: t('ui.chart.outsideBand'),
            value: (_u: uPlot, v: number | null) => (v === null ? '–' : String(v)),
            stroke: colours.out,
            width: 0,
            paths: () => null,
            points: { show: true, size: 8, fill: colours.out, stroke: colours.out },
          },
        ]
      : []),
  ];
  return { data, series };
}

/**
 * A time-series line chart (uPlot, canvas) with an optional allowed band shaded and the points
 * outside it marked in red. The canvas is hidden from screen readers; `summary` is read instead.
 */
export function LineChart({ label, summary, points, unit, band, height = 260 }: LineChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const { data, series } = plotData(points, unit, band);
    const plot = new uPlot(
      {
        width: box.clientWidth || 600,
        height,
        ms: 1,
        tzDate: londonDate,
        series,
        bands: band ? [{ series: [2, 3], fill: colours.band }] : [],
        scales: band
          ? {
              y: {
                range: (_u, lo, hi) => [Math.min(lo ?? band.min, band.min) - 2, Math.max(hi ?? band.max, band.max) + 2],
              },
            }
          : {},
        axes: [{ values: timeTicks }, { label: unit }],
        legend: { show: true },
      },
      data,
      box,
    );
    plotRef.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: box.clientWidth || 600, height }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, [points, band, unit, height]);

  return (
    <figure className="chart">
      <figcaption className="visually-hidden">
        {label}. {summary}
      </figcaption>
      <div ref={boxRef} className="chart__plot" aria-hidden="true" />
    </figure>
  );
}
