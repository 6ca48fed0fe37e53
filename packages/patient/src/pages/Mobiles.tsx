import type { PatientMobile } from '@medlocker/core';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ApiError, messageOf, rpc } from '../api.ts';
import { type ErrorItem, ErrorSummary, TextField } from '../ui.tsx';

/** +447700900123 → '07700 900123', as a UK patient writes their number. */
export function ukMobile(e164: string): string {
  const national = e164.startsWith('+44') ? `0${e164.slice(3)}` : e164;
  return /^07\d{9}$/.test(national) ? `${national.slice(0, 5)} ${national.slice(5)}` : national;
}

/** The server's answer as errors on this form's fields (`mobileNumber`, `code`), else one for the form. */
function errorsOf(error: unknown): ErrorItem[] {
  if (error instanceof ApiError && error.details.some((d) => d.path)) {
    return error.details.map((d) => ({
      field: d.path === 'code' ? 'mobile-code' : d.path === 'mobileNumber' ? 'new-mobile' : undefined,
      message: d.message,
    }));
  }
  return [{ message: messageOf(error) }];
}

/**
 * The mobiles the link's codes go to: the one the pharmacy has on record (theirs to change), and up to
 * 3 the patient adds (a carer's phone, a new phone), each proven with a code texted to it.
 */
export function Mobiles() {
  const [mobiles, setMobiles] = useState<PatientMobile[] | null>(null);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setMobiles((await rpc('auth', 'listPatientMobile')).mobiles);
    } catch (error) {
      setErrors([{ message: messageOf(error) }]);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function act(work: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setErrors([]);
    setNotice('');
    try {
      await work();
    } catch (error) {
      setErrors(errorsOf(error));
    } finally {
      setBusy(false);
    }
  }

  const sendCode = (event: FormEvent) => {
    event.preventDefault();
    if (!number.trim()) return setErrors([{ field: 'new-mobile', message: 'Enter a UK mobile number' }]);
    void act(async () => {
      const answer = await rpc('auth', 'addPatientMobile', { mobileNumber: number.trim() });
      setMobiles(answer.mobiles);
      // The server's form of the number (+447…): the unconfirmed one ending in the digits typed.
      const tail = number.replace(/\D/g, '').slice(-9);
      const added = answer.mobiles.find((m) => !m.onRecord && !m.verified && m.mobileNumber.endsWith(tail));
      setPending(added?.mobileNumber ?? number.trim());
    });
  };

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) {
      return setErrors([{ field: 'mobile-code', message: 'Enter the 6-digit code from the text message' }]);
    }
    if (!pending) return;
    void act(async () => {
      const answer = await rpc('auth', 'addPatientMobile', { mobileNumber: pending, code: digits });
      setMobiles(answer.mobiles);
      setNotice(`${ukMobile(pending)} added`);
      setPending(null);
      setNumber('');
      setCode('');
    });
  };

  const remove = (mobile: string) =>
    act(async () => {
      setMobiles((await rpc('auth', 'removePatientMobile', { mobileNumber: mobile })).mobiles);
      setNotice(`${ukMobile(mobile)} removed`);
    });

  const fieldError = (id: string) => errors.find((e) => e.field === id)?.message;
  return (
    <section aria-labelledby="mobiles-title">
      <h2 id="mobiles-title">Mobiles for your codes</h2>
      <p>When you open a link from your pharmacy, we can text a code to these numbers.</p>
      <ErrorSummary errors={errors} />
      <p role="status">{notice}</p>
      {mobiles === null ? (
        <p>Loading…</p>
      ) : (
        <ul className="order-list" aria-label="Your mobiles">
          {mobiles.map((m) => (
            <li key={m.mobileNumber} className="mobile-row">
              <span>{ukMobile(m.mobileNumber)}</span>
              {m.onRecord && <span className="hint">The number your pharmacy has for you</span>}
              {!m.onRecord && !m.verified && <span className="hint">Waiting for its code</span>}
              {!m.onRecord && (
                <button
                  className="link-button"
                  type="button"
                  onClick={() => remove(m.mobileNumber)}
                  disabled={busy}
                  aria-label={`Remove ${ukMobile(m.mobileNumber)}`}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {pending ? (
        <form onSubmit={confirm} noValidate>
          <TextField
            id="mobile-code"
            label={`Code texted to ${ukMobile(pending)}`}
            hint="The code is 6 numbers"
            error={fieldError('mobile-code')}
            value={code}
            onChange={setCode}
            inputMode="numeric"
            autoComplete="one-time-code"
            className="input--code"
            maxLength={10}
          />
          <div className="actions">
            <button className="button" type="submit" disabled={busy}>
              Add this mobile
            </button>
            <button className="link-button" type="button" onClick={() => setPending(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <form onSubmit={sendCode} noValidate>
          <TextField
            id="new-mobile"
            label="Add a UK mobile number"
            hint="We will text it a code to check it is yours, for example 07700 900123"
            error={fieldError('new-mobile')}
            value={number}
            onChange={setNumber}
            inputMode="tel"
            autoComplete="tel"
            maxLength={30}
          />
          <button className="button button--secondary" type="submit" disabled={busy}>
            Text a code to this number
          </button>
        </form>
      )}
    </section>
  );
}
