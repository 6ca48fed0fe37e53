import { defaultOpeningHours, formatMonth, type UsageStats } from '@medlocker/core';

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

export function UsageAnalyses({ usage }: { usage: UsageStats }) {
  const byDay = usage.dayOfWeekAnalysis;
  const byHour = usage.timeOfDayAnalysis;
  const months = Object.keys(usage.channelSizeUsage).sort();
  return (
    <div className="usage__analyses">
      <section aria-labelledby="usage-ages" className="usage__part">
        <h3 id="usage-ages" className="fleet__level-title">
          Patients who collected, by age
        </h3>
        <table className="table usage__table" aria-labelledby="usage-ages">
          <thead>
            <tr>
              <th scope="col">Age</th>
              <th scope="col">Patients</th>
            </tr>
          </thead>
          <tbody>
            {ageLabels.map(([key, label]) => (
              <tr key={key}>
                <th scope="row">{label}</th>
                <td>{usage.ageRange[key]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="usage-days" className="usage__part">
        <h3 id="usage-days" className="fleet__level-title">
          Collections by day of week
        </h3>
        <p className="muted">Opening hours: {openingHoursText} (London time).</p>
        <table className="table usage__table" aria-labelledby="usage-days">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">During opening hours</th>
              <th scope="col">Out of hours</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                <td>{byDay.duringOpeningHours[i] ?? 0}</td>
                <td>{byDay.outOfHours[i] ?? 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="usage-hours" className="usage__part">
        <h3 id="usage-hours" className="fleet__level-title">
          Collections by time of day
        </h3>
        <details>
          <summary>Each hour (London time)</summary>
          <table className="table usage__table" aria-labelledby="usage-hours">
            <thead>
              <tr>
                <th scope="col">Hour</th>
                <th scope="col">During opening hours</th>
                <th scope="col">Out of hours</th>
              </tr>
            </thead>
            <tbody>
              {Array.from({ length: 24 }, (_, hour) => (
                <tr key={hh(hour)}>
                  <th scope="row">
                    {hh(hour)} to {hh((hour + 1) % 24)}
                  </th>
                  <td>{byHour.duringOpeningHours[hour] ?? 0}</td>
                  <td>{byHour.outOfHours[hour] ?? 0}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </section>

      <section aria-labelledby="usage-channels" className="usage__part">
        <h3 id="usage-channels" className="fleet__level-title">
          Collections by locker channel size
        </h3>
        <p className="muted">Lockers do not report channel sizes yet: every collection is counted as Other.</p>
        <details>
          <summary>Each month</summary>
          <table className="table usage__table" aria-labelledby="usage-channels">
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Small</th>
                <th scope="col">Medium</th>
                <th scope="col">Large</th>
                <th scope="col">Other</th>
              </tr>
            </thead>
            <tbody>
              {months.map((m) => {
                const sizes = usage.channelSizeUsage[m] ?? { small: 0, medium: 0, large: 0, other: 0 };
                return (
                  <tr key={m}>
                    <th scope="row">{monthLabel(m)}</th>
                    <td>{sizes.small}</td>
                    <td>{sizes.medium}</td>
                    <td>{sizes.large}</td>
                    <td>{sizes.other}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </details>
      </section>
    </div>
  );
}
