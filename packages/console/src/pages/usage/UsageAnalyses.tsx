import { defaultOpeningHours, formatMonth, type UsageStats } from '@medlocker/core';
import type { ReactNode } from 'react';
import { t } from './i18n/index.ts';

/*
 * SPEC §3's usage analyses (reports/getUsageStats) as tables: who collects (age ranges), when (day of
 * week, hour of day, in and out of opening hours) and which locker channels (per month). A component
 * of its own so that the business stats page can embed it too.
 */

/** Monday (1) to Sunday (7), as the opening hours number them. */
const dayNumbers = [1, 2, 3, 4, 5, 6, 7] as const;
const dayName = (day: (typeof dayNumbers)[number]) => t(`usage.day.${day}` as const);
const ageKeys: (keyof UsageStats['ageRange'])[] = [
  'age18To30',
  'age30To40',
  'age40To50',
  'age50To60',
  'age60To70',
  'age70plus',
];

const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
/** e.g. "Monday to Saturday, 09:00 to 18:00". */
export const openingHoursText = () => {
  const { days, fromHour, toHour } = defaultOpeningHours;
  return t('usage.openingHours', {
    firstDay: dayName(days[0] as (typeof dayNumbers)[number]),
    lastDay: dayName(days.at(-1) as (typeof dayNumbers)[number]),
    from: hh(fromHour),
    to: hh(toHour),
  });
};

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

const inAndOut = () => [t('usage.duringOpeningHours'), t('usage.outOfHours')];

export function UsageAnalyses({ usage }: { usage: UsageStats }) {
  const byDay = usage.dayOfWeekAnalysis;
  const byHour = usage.timeOfDayAnalysis;
  const months = Object.keys(usage.channelSizeUsage).sort();
  return (
    <div className="usage__analyses">
      <Analysis
        id="usage-ages"
        title={t('usage.ages.title')}
        columns={[t('usage.ages.age'), t('usage.ages.patients')]}
        rows={ageKeys.map((key) => ({ key, label: t(`usage.age.${key}` as const), values: [usage.ageRange[key]] }))}
      />
      <Analysis
        id="usage-days"
        title={t('usage.days.title')}
        note={t('usage.days.note', { hours: openingHoursText() })}
        columns={[t('usage.days.day'), ...inAndOut()]}
        rows={dayNumbers.map((day, i) => ({
          key: String(day),
          label: dayName(day),
          values: [byDay.duringOpeningHours[i] ?? 0, byDay.outOfHours[i] ?? 0],
        }))}
      />
      <Analysis
        id="usage-hours"
        title={t('usage.hours.title')}
        summary={t('usage.hours.summary')}
        columns={[t('usage.hours.hour'), ...inAndOut()]}
        rows={Array.from({ length: 24 }, (_, hour) => ({
          key: hh(hour),
          label: t('usage.hourRange', { from: hh(hour), to: hh((hour + 1) % 24) }),
          values: [byHour.duringOpeningHours[hour] ?? 0, byHour.outOfHours[hour] ?? 0],
        }))}
      />
      <Analysis
        id="usage-channels"
        title={t('usage.channels.title')}
        note={t('usage.channels.note')}
        summary={t('usage.channels.summary')}
        columns={[
          t('usage.channels.month'),
          t('usage.channels.small'),
          t('usage.channels.medium'),
          t('usage.channels.large'),
          t('usage.channels.other'),
        ]}
        rows={months.map((m) => {
          const sizes = usage.channelSizeUsage[m] ?? { small: 0, medium: 0, large: 0, other: 0 };
          return { key: m, label: monthLabel(m), values: [sizes.small, sizes.medium, sizes.large, sizes.other] };
        })}
      />
    </div>
  );
}
