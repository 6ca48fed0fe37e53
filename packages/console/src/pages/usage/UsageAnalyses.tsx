import { defaultOpeningHours, formatMonth, type UsageStats } from '@medlocker/core';
import type { ReactNode } from 'react';

/*
 * SPEC §3's usage analyses (reports/getUsageStats) as tables: who collects (age ranges), when (day of
 * week, hour of day, in and out of opening hours) and which locker channels (per month). A component
 * of its own so that the business stats page can embed it too.
 */

const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const ageLabels: [keyof UsageStats['ageRange'], string][] = [
  ['age18To30', '18 to 29'],
  ['age30To40', '30 to 39'],
  ['age40To50', '40 to 49'],
  ['age50To60', '50 to 59'],
  ['age60To70', '60 to 69'],
  ['age70plus', '70 and over'],
];

const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
const openDays = defaultOpeningHours.days.map((d) => days[d - 1]);
/** e.g. "Monday to Saturday, 09:00 to 18:00". */
export const openingHoursText = `${openDays[0]} to ${openDays.at(-1)}, ${hh(defaultOpeningHours.fromHour)} to ${hh(defaultOpeningHours.toHour)}`;

/** "2026-03" as "March 2026". */
const monthLabel = (ym: string) => formatMonth(Number(ym.slice(0, 4)), Number(ym.slice(5, 7)));

type Row = { key: string; label: string; values: number[] };

/** One part of the usage figures under its h3; `empty` says so in place of `children` when it has nothing. */
export function UsagePart({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: ReactNode;
  empty?: string | false;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="usage__part">
      <h3 id={id} className="fleet__level-title">
        {title}
      </h3>
      {empty ? <p className="empty">{empty}</p> : children}
    </section>
  );
}

/** One analysis: its heading, a note, and its table (inside a disclosure when `summary` is given). */
function Analysis({
  id,
  title,
  note,
  summary,
  columns,
  rows,
}: {
  id: string;
  title: string;
  note?: string;
  summary?: string;
  columns: string[];
  rows: Row[];
}) {
  const table = (
    <table className="table usage__table" aria-labelledby={id}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            {row.values.map((v, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are its columns, in order
              <td key={i}>{v}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <UsagePart id={id} title={title}>
      {note && <p className="muted">{note}</p>}
      {summary ? (
        <details>
          <summary>{summary}</summary>
          {table}
        </details>
      ) : (
        table
      )}
    </UsagePart>
  );
}

const inAndOut = ['During opening hours', 'Out of hours'];

export function UsageAnalyses({ usage }: { usage: UsageStats }) {
  const byDay = usage.dayOfWeekAnalysis;
  const byHour = usage.timeOfDayAnalysis;
  const months = Object.keys(usage.channelSizeUsage).sort();
  return (
    <div className="usage__analyses">
      <Analysis
        id="usage-ages"
        title="Patients who collected, by age"
        columns={['Age', 'Patients']}
        rows={ageLabels.map(([key, label]) => ({ key, label, values: [usage.ageRange[key]] }))}
      />
      <Analysis
        id="usage-days"
        title="Collections by day of week"
        note={`Opening hours: ${openingHoursText} (London time).`}
        columns={['Day', ...inAndOut]}
        rows={days.map((day, i) => ({
          key: day,
          label: day,
          values: [byDay.duringOpeningHours[i] ?? 0, byDay.outOfHours[i] ?? 0],
        }))}
      />
      <Analysis
        id="usage-hours"
        title="Collections by time of day"
        summary="Each hour (London time)"
        columns={['Hour', ...inAndOut]}
        rows={Array.from({ length: 24 }, (_, hour) => ({
          key: hh(hour),
          label: `${hh(hour)} to ${hh((hour + 1) % 24)}`,
          values: [byHour.duringOpeningHours[hour] ?? 0, byHour.outOfHours[hour] ?? 0],
        }))}
      />
      <Analysis
        id="usage-channels"
        title="Collections by locker channel size"
        note="Lockers do not report channel sizes yet: every collection is counted as Other."
        summary="Each month"
        columns={['Month', 'Small', 'Medium', 'Large', 'Other']}
        rows={months.map((m) => {
          const sizes = usage.channelSizeUsage[m] ?? { small: 0, medium: 0, large: 0, other: 0 };
          return { key: m, label: monthLabel(m), values: [sizes.small, sizes.medium, sizes.large, sizes.other] };
        })}
      />
    </div>
  );
}
