import { Fieldset } from '../form.tsx';
import { type PatientMessageId, t } from '../i18n/index.ts';

/** What the patient typed in the three boxes. */
export type DateParts = { day: string; month: string; year: string };

export const noDate: DateParts = { day: '', month: '', year: '' };

/** Which parts are missing (day, month, year as 1s and 0s) → what to say. */
const missingParts: Record<string, PatientMessageId> = {
  '100': 'date.errorDay',
  '010': 'date.errorMonth',
  '001': 'date.errorYear',
  '110': 'date.errorDayMonth',
  '101': 'date.errorDayYear',
  '011': 'date.errorMonthYear',
};

/** Day, month and year as YYYY-MM-DD, or what is wrong with them (SPEC §5's words where it has them). */
export function dateOfBirthOf(
  day: string,
  month: string,
  year: string,
  now = new Date(),
): { value?: string; error?: string } {
  const [d, m, y] = [day.trim(), month.trim(), year.trim()];
  if (!d && !m && !y) return { error: t('date.errorEmpty') };
  if (!d || !m || !y) return { error: t(missingParts[`${Number(!d)}${Number(!m)}${Number(!y)}`] ?? 'date.errorEmpty') };
  if (!/^\d{1,2}$/.test(d) || !/^\d{1,2}$/.test(m) || !/^\d{4}$/.test(y)) return { error: t('date.errorInvalid') };
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) {
    return { error: t('date.errorInvalid') };
  }
  if (Number(y) < 1900) return { error: t('date.errorInvalid') };
  if (date.getTime() > now.getTime()) return { error: t('date.errorFuture') };
  return { value: `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}` };
}

/**
 * A date of birth as three boxes (`dob-day`, `dob-month`, `dob-year`: the error summary links to the
 * first), with the browser's birthday autofill.
 */
export function DateOfBirthFields(props: {
  legend: string;
  legendClassName: 'label' | 'legend-heading';
  value: DateParts;
  onChange: (part: keyof DateParts, value: string) => void;
  error?: string;
}) {
  const part = (key: keyof DateParts, label: string) => (
    <div className={`date-input__item${key === 'year' ? ' date-input__item--year' : ''}`}>
      <label className="label" htmlFor={`dob-${key}`}>
        {label}
      </label>
      <input
        id={`dob-${key}`}
        name={`dob-${key}`}
        className={`input${props.error ? ' input--error' : ''}`}
        inputMode="numeric"
        autoComplete={`bday-${key}`}
        maxLength={key === 'year' ? 4 : 2}
        value={props.value[key]}
        onChange={(event) => props.onChange(key, event.target.value)}
      />
    </div>
  );
  return (
    <Fieldset
      legend={props.legend}
      legendClassName={props.legendClassName}
      hint={{ id: 'dob-hint', text: t('date.hint') }}
      error={props.error}
      errorId="dob-error"
    >
      <div className="date-input">
        {part('day', t('date.day'))}
        {part('month', t('date.month'))}
        {part('year', t('date.year'))}
      </div>
    </Fieldset>
  );
}
