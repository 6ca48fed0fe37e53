import type { PatientSessionInfo } from '@medlocker/core';
import { type FormEvent, useState } from 'react';
import { ApiError, messageOf, rpc } from '../api.ts';
import { type ErrorItem, ErrorSummary, Page, TextField } from '../ui.tsx';

/**
 * Before anything personal: the patient confirms their date of birth for the order their link names,
 * or asks for a code by text and enters it. Nothing about the order or the patient is shown here (not
 * even a name); the server's answer to a wrong try (tries left, or the lock) is shown beside the field.
 */
export function IdentityCheck(props: {
  orderId: string;
  /** Why the patient is asked (again): a timed-out session, a sign-out. */
  notice?: string;
  onVerified: (session: PatientSessionInfo) => void;
  onNotFound: () => void;
}) {
  const [mode, setMode] = useState<'dateOfBirth' | 'code'>('dateOfBirth');
  const [sentTo, setSentTo] = useState<string[]>([]);
  return mode === 'dateOfBirth' ? (
    <DateOfBirthStep
      {...props}
      onUseCode={(endings) => {
        setSentTo(endings);
        setMode('code');
      }}
    />
  ) : (
    <CodeStep {...props} sentTo={sentTo} onResent={setSentTo} onUseDate={() => setMode('dateOfBirth')} />
  );
}

type StepProps = Parameters<typeof IdentityCheck>[0];

/** A failed call as errors on the form: the server's per-field messages, else one for the form. */
function errorsOf(error: unknown, field: string): ErrorItem[] {
  if (error instanceof ApiError && error.details.some((d) => d.path)) {
    return error.details.map((d) => ({
      field: d.path === 'dateOfBirth' ? 'dob-day' : d.path || undefined,
      message: d.message,
    }));
  }
  return [{ field: error instanceof ApiError && error.status === 429 ? field : undefined, message: messageOf(error) }];
}

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

function DateOfBirthStep(props: StepProps & { onUseCode: (endings: string[]) => void }) {
  const [day, setDay] = useState('');
  const [month, setMonth] = useState('');
  const [year, setYear] = useState('');
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);
  const dobError = errors.find((e) => e.field === 'dob-day')?.message;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checked = dateOfBirthOf(day, month, year);
    if (!checked.value) {
      setErrors([{ field: 'dob-day', message: checked.error ?? 'Expected a valid date' }]);
      return;
    }
    setBusy(true);
    try {
      const session = await rpc('auth', 'verifyPatient', { orderId: props.orderId, dateOfBirth: checked.value });
      props.onVerified(session);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return props.onNotFound();
      setErrors(errorsOf(error, 'dob-day'));
    } finally {
      setBusy(false);
    }
  }

  async function textMe() {
    if (busy) return;
    setBusy(true);
    try {
      const sent = await rpc('auth', 'verifySms', { orderId: props.orderId });
      props.onUseCode(sent.mobileEndings);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return props.onNotFound();
      setErrors(errorsOf(error, 'text-me').map((e) => ({ ...e, field: e.field === 'orderId' ? undefined : e.field })));
    } finally {
      setBusy(false);
    }
  }

  const part = (id: string, label: string, value: string, set: (v: string) => void, width: string) => (
    <div className={`date-input__item${width}`}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={id}
        className={`input${dobError ? ' input--error' : ''}`}
        inputMode="numeric"
        autoComplete={id === 'dob-day' ? 'bday-day' : id === 'dob-month' ? 'bday-month' : 'bday-year'}
        maxLength={id === 'dob-year' ? 4 : 2}
        value={value}
        onChange={(event) => set(event.target.value)}
      />
    </div>
  );

  return (
    <Page title="Confirm it is you">
      {props.notice && (
        <div className="notice" role="status">
          <p>{props.notice}</p>
        </div>
      )}
      <ErrorSummary errors={errors} />
      <h1>Confirm it is you</h1>
      <p>To keep your prescription private, we need to check who you are before showing your order.</p>
      <form onSubmit={submit} noValidate>
        <div className={`form-group${dobError ? ' form-group--error' : ''}`}>
          <fieldset aria-describedby={`dob-hint${dobError ? ' dob-error' : ''}`}>
            <legend className="legend-heading">What is your date of birth?</legend>
            <span className="hint" id="dob-hint">
              For example, 27 3 1985
            </span>
            {dobError && (
              <span className="error-message" id="dob-error">
                <span className="visually-hidden">Error:</span> {dobError}
              </span>
            )}
            <div className="date-input">
              {part('dob-day', 'Day', day, setDay, '')}
              {part('dob-month', 'Month', month, setMonth, '')}
              {part('dob-year', 'Year', year, setYear, ' date-input__item--year')}
            </div>
          </fieldset>
        </div>
        <div className="actions">
          <button className="button" type="submit" disabled={busy}>
            Continue
          </button>
        </div>
      </form>
      <h2>Do not want to use your date of birth?</h2>
      <p>We can text a 6-digit code to the mobile number your pharmacy has for you.</p>
      <button className="button button--secondary" type="button" id="text-me" onClick={textMe} disabled={busy}>
        Text me a code instead
      </button>
    </Page>
  );
}

function CodeStep(
  props: StepProps & { sentTo: string[]; onResent: (endings: string[]) => void; onUseDate: () => void },
) {
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [resent, setResent] = useState(false);
  const [busy, setBusy] = useState(false);
  const codeError = errors.find((e) => e.field === 'code')?.message;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const digits = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setErrors([{ field: 'code', message: 'Enter the 6-digit code from the text message' }]);
      return;
    }
    setBusy(true);
    try {
      props.onVerified(await rpc('auth', 'verifySmsCode', { orderId: props.orderId, code: digits }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return props.onNotFound();
      setErrors(errorsOf(error, 'code'));
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    if (busy) return;
    setBusy(true);
    try {
      const sent = await rpc('auth', 'verifySms', { orderId: props.orderId });
      props.onResent(sent.mobileEndings);
      setResent(true);
      setErrors([]);
    } catch (error) {
      setErrors(errorsOf(error, 'code'));
    } finally {
      setBusy(false);
    }
  }

  const endings = props.sentTo.map((e) => `ending ${e}`).join(' and your mobile ');
  return (
    <Page title="Enter the code we texted you">
      <ErrorSummary errors={errors} />
      <h1>Enter the code we texted you</h1>
      <p role="status">
        {resent ? 'We have sent a new code' : 'We have sent a 6-digit code'} to your mobile {endings}. It works for 10
        minutes.
      </p>
      <form onSubmit={submit} noValidate>
        <TextField
          id="code"
          label="Code"
          hint="The code is 6 numbers, for example 123456"
          error={codeError}
          value={code}
          onChange={setCode}
          inputMode="numeric"
          autoComplete="one-time-code"
          className="input--code"
          maxLength={10}
          spellCheck={false}
        />
        <div className="actions">
          <button className="button" type="submit" disabled={busy}>
            Continue
          </button>
        </div>
      </form>
      <p>
        <button className="link-button" type="button" onClick={resend} disabled={busy}>
          Send a new code
        </button>
      </p>
      <p>
        <button className="link-button" type="button" onClick={props.onUseDate}>
          Use your date of birth instead
        </button>
      </p>
    </Page>
  );
}
