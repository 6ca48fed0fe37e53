import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError, messageOf } from './api.ts';
import { sayDetail } from './i18n/errors.ts';
import { t } from './i18n/index.ts';

/*
 * The building blocks of the patient page's forms: the error summary that takes focus, fields with
 * their label, hint and error beside them, and the one-request-at-a-time rule of every form.
 */

export type ErrorItem = { field?: string; message: string };

/** The message of the error on a field (by the id of its input), if any. */
export const errorFor = (errors: ErrorItem[], field: string) => errors.find((e) => e.field === field)?.message;

/**
 * A failed call as errors on a form: the server's per-field messages, on the input `fieldOf` names for
 * each path (none: the form's), else one message for the whole form (or for `field`).
 */
export function errorsOf(error: unknown, fieldOf: (path: string) => string | undefined, field?: string): ErrorItem[] {
  if (error instanceof ApiError && error.details.some((d) => d.path)) {
    return error.details.map((d) => ({ field: fieldOf(d.path), message: sayDetail(d) }));
  }
  return [{ field, message: messageOf(error) }];
}

/**
 * One request at a time for a screen: `busy` while one is on its way (its buttons disabled), and
 * `run(work, failed)`, which does nothing while busy, else runs `work` and hands what it throws to
 * `failed`; the screen is not busy once either has finished.
 */
export function useBusy() {
  const [busy, setBusy] = useState(false);
  async function run(work: () => Promise<void>, failed: (error: unknown) => void): Promise<void> {
    if (busy) return;
    setBusy(true);
    try {
      await work();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}

/**
 * The errors of a form, listed at the top with a link to each field; it takes focus when it appears
 * (or its messages change), so a screen reader announces it and the keyboard starts from it.
 */
export function ErrorSummary({ errors }: { errors: ErrorItem[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const key = errors.map((e) => `${e.field}:${e.message}`).join('|');
  useEffect(() => {
    if (key) ref.current?.focus();
  }, [key]);
  if (errors.length === 0) return null;
  return (
    <div className="error-summary" ref={ref} tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{t('error.summary')}</h2>
      <ul>
        {errors.map((e) => (
          <li key={`${e.field}:${e.message}`}>
            {e.field ? (
              <a
                href={`#${e.field}`}
                onClick={(event) => {
                  event.preventDefault();
                  document.getElementById(e.field ?? '')?.focus();
                }}
              >
                {e.message}
              </a>
            ) : (
              e.message
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A field's error, read out before it as "Error: …". */
export function ErrorMessage({ id, message }: { id: string; message: string }) {
  return (
    <span className="error-message" id={id}>
      <span className="visually-hidden">{t('error.prefix')}</span> {message}
    </span>
  );
}

export type TextFieldProps = {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'tel';
  inputMode?: 'numeric' | 'text' | 'tel';
  autoComplete?: string;
  className?: string;
  maxLength?: number;
  spellCheck?: boolean;
};

/** A text input with its label, hint and error message, wired with aria-describedby. */
export function TextField(props: TextFieldProps) {
  const described = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={`form-group${props.error ? ' form-group--error' : ''}`}>
      <label className="label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.hint && (
        <span className="hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      )}
      {props.error && <ErrorMessage id={`${props.id}-error`} message={props.error} />}
      <input
        id={props.id}
        name={props.id}
        className={`input${props.error ? ' input--error' : ''}${props.className ? ` ${props.className}` : ''}`}
        type={props.type ?? 'text'}
        value={props.value}
        inputMode={props.inputMode}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        spellCheck={props.spellCheck}
        aria-describedby={described || undefined}
        aria-invalid={props.error ? true : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

/** The field for a code sent by text or email: the phone offers its numeric keypad and the code it received. */
export const CodeField = (props: Omit<TextFieldProps, 'inputMode' | 'autoComplete' | 'className' | 'maxLength'>) => (
  <TextField inputMode="numeric" autoComplete="one-time-code" className="input--code" maxLength={10} {...props} />
);

/** A code as typed (spaces are allowed) when it is the 6 digits sent, else null. */
export function sixDigits(typed: string): string | null {
  const digits = typed.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * Radio buttons or date boxes under one legend, with a hint and the error message, wired with
 * aria-describedby.
 */
export function Fieldset(props: {
  legend: ReactNode;
  /** 'legend-heading' when the question is the screen's heading. */
  legendClassName: 'label' | 'legend-heading';
  hint?: { id: string; text: ReactNode };
  error?: string;
  errorId: string;
  children: ReactNode;
}) {
  const described = [props.hint?.id ?? '', props.error ? props.errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={`form-group${props.error ? ' form-group--error' : ''}`}>
      <fieldset aria-describedby={described || undefined}>
        <legend className={props.legendClassName}>{props.legend}</legend>
        {props.hint && (
          <span className="hint" id={props.hint.id}>
            {props.hint.text}
          </span>
        )}
        {props.error && <ErrorMessage id={props.errorId} message={props.error} />}
        {props.children}
      </fieldset>
    </div>
  );
}

/** A form's submit button (disabled while its request is on its way), and any others beside it. */
export function FormActions(props: { submit: string; busy: boolean; children?: ReactNode }) {
  return (
    <div className="actions">
      <button className="button" type="submit" disabled={props.busy}>
        {props.submit}
      </button>
      {props.children}
    </div>
  );
}
