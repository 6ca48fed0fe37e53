import { useId } from 'react';
import type { UrlCodec } from '../../state/url-filter.ts';

const monthPattern = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A month as YYYY-MM (year 2000–2100), else null. */
export const isMonth = (text: string): boolean => {
  const m = monthPattern.exec(text);
  return m !== null && Number(m[1]) >= 2000 && Number(m[1]) <= 2100;
};

/** A month in the address: a real YYYY-MM, else none (the default). */
export const monthCodec: UrlCodec<string | null> = { parse: (t) => (isMonth(t) ? t : null), format: (v) => v };

/** YYYY-MM moved by `by` months. */
export function addMonths(month: string, by: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The browser's own date or month input (SPEC §2 "date picker"), labelled as the console's fields
 * are; a value `accepts` refuses (typed half-way, outside min..max) is ignored.
 */
export function NativeDateField(props: {
  type: 'date' | 'month';
  label: string;
  value: string;
  min?: string;
  max?: string;
  accepts: (value: string) => boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="field__input"
        type={props.type}
        required
        value={props.value}
        min={props.min}
        max={props.max}
        onChange={(e) => {
          if (props.accepts(e.target.value)) props.onChange(e.target.value);
        }}
      />
    </div>
  );
}

/** The month picker: a month outside min..max is ignored. */
export function MonthField(props: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (month: string) => void;
}) {
  const inRange = (v: string) => isMonth(v) && (!props.max || v <= props.max) && (!props.min || v >= props.min);
  return <NativeDateField type="month" {...props} accepts={inRange} />;
}
