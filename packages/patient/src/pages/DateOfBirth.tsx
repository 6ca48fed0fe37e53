import { Fieldset } from '../form.tsx';
import { t } from '../i18n/index.ts';

/** What the patient typed in the three boxes. */
export type DateParts = { day: string; month: string; year: string };

export const noDate: DateParts = { day: '', month: '', year: '' };

/** Day, month and year as YYYY-MM-DD, or what is wrong with them (SPEC §5's words where it has them). */
export function dateOfBirthOf(
  day: string,
  month: string,
  year: string,
  now = new Date(),
): { value?: string; error?: string } {
  const [d, m, y] = [day.trim(), month.trim(), year.trim()];
  if (!d && !m && !y) return { error: 'Enter your date of birth' };
  const missing = [!d && 'a day', !m && 'a month', !y && 'a year'].filter(Boolean);
  if (missing.length > 0) return { error: `Date of birth must include ${missing.join(' and ')}` };
  if (!/^\d{1,2}$/.test(d) || !/^\d{1,2}$/.test(m) || !/^\d{4}$/.test(y)) return { error: 'Expected a valid date' };
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) {
    return { error: 'Expected a valid date' };
  }
  if (Number(y) < 1900) return { error: 'Expected a valid date' };
  if (date.getTime() > now.getTime()) return { error: 'Date must be in the past' };
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
      hint={{ id: 'dob-hint', text: 'For example, 27 3 1985' }}
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
