import type { PatientMobile } from '@medlocker/core';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { messageOf, rpc } from '../api.ts';
import {
  CodeField,
  type ErrorItem,
  ErrorSummary,
  errorFor,
  errorsOf,
  FormActions,
  sixDigits,
  TextField,
  useBusy,
} from '../form.tsx';
import { t } from '../i18n/index.ts';

/** +447700900123 → '07700 900123', as a UK patient writes their number. */
export function ukMobile(e164: string): string {
  const national = e164.startsWith('+44') ? `0${e164.slice(3)}` : e164;
  return /^07\d{9}$/.test(national) ? `${national.slice(0, 5)} ${national.slice(5)}` : national;
}

/** The server's paths as this form's fields (`mobileNumber`, `code`). */
const fieldOf = (path: string) =>
  path === 'code' ? 'mobile-code' : path === 'mobileNumber' ? 'new-mobile' : undefined;

/**
 * The mobiles the link's codes go to: the one the pharmacy has on record (theirs to change), and up to
 * 3 the patient adds (a carer's phone, a new phone), each proven with a code texted to it.
 */
export function Mobiles() {
  const [mobiles, setMobiles] = useState<PatientMobile[] | null>(null);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [notice, setNotice] = useState('');
  const { busy, run } = useBusy();

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

  /** A change to the list: the last one's errors and notice go; the server's answer shows beside its field. */
  const act = (work: () => Promise<void>) =>
    run(
      async () => {
        setErrors([]);
        setNotice('');
        await work();
      },
      (error) => setErrors(errorsOf(error, fieldOf)),
    );

  const remove = (mobile: string) =>
    act(async () => {
      setMobiles((await rpc('auth', 'removePatientMobile', { mobileNumber: mobile })).mobiles);
      setNotice(t('mobiles.removed', { mobile: ukMobile(mobile) }));
    });

  return (
    <section aria-labelledby="mobiles-title">
      <h2 id="mobiles-title">{t('mobiles.title')}</h2>
      <p>{t('mobiles.lead')}</p>
      <ErrorSummary errors={errors} />
      <p role="status">{notice}</p>
      {mobiles === null ? <p>{t('page.loading')}</p> : <MobileList mobiles={mobiles} busy={busy} onRemove={remove} />}
      <AddMobile
        errors={errors}
        busy={busy}
        act={act}
        onProblem={(problem) => setErrors([problem])}
        onMobiles={setMobiles}
        onAdded={(mobile) => setNotice(t('mobiles.added', { mobile: ukMobile(mobile) }))}
      />
    </section>
  );
}

/** Adding a mobile: its number, which gets a code by text, then that code. */
function AddMobile(props: {
  errors: ErrorItem[];
  busy: boolean;
  act: (work: () => Promise<void>) => Promise<void>;
  onProblem: (problem: ErrorItem) => void;
  onMobiles: (mobiles: PatientMobile[]) => void;
  onAdded: (mobile: string) => void;
}) {
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [pending, setPending] = useState<string | null>(null);

  const sendCode = (event: FormEvent) => {
    event.preventDefault();
    if (!number.trim()) return props.onProblem({ field: 'new-mobile', message: t('mobiles.errorNumber') });
    void props.act(async () => {
      const answer = await rpc('auth', 'addPatientMobile', { mobileNumber: number.trim() });
      props.onMobiles(answer.mobiles);
      // The server's form of the number (+447…): the unconfirmed one ending in the digits typed.
      const tail = number.replace(/\D/g, '').slice(-9);
      const added = answer.mobiles.find((m) => !m.onRecord && !m.verified && m.mobileNumber.endsWith(tail));
      setPending(added?.mobileNumber ?? number.trim());
    });
  };

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    const digits = sixDigits(code);
    if (!digits) return props.onProblem({ field: 'mobile-code', message: t('codes.errorText') });
    if (!pending) return;
    void props.act(async () => {
      const answer = await rpc('auth', 'addPatientMobile', { mobileNumber: pending, code: digits });
      props.onMobiles(answer.mobiles);
      props.onAdded(pending);
      setPending(null);
      setNumber('');
      setCode('');
    });
  };

  return pending ? (
    <ConfirmForm
      pending={pending}
      code={code}
      onCode={setCode}
      error={errorFor(props.errors, 'mobile-code')}
      busy={props.busy}
      onSubmit={confirm}
      onCancel={() => setPending(null)}
    />
  ) : (
    <NumberForm
      number={number}
      onNumber={setNumber}
      error={errorFor(props.errors, 'new-mobile')}
      busy={props.busy}
      onSubmit={sendCode}
    />
  );
}

/** Each mobile, with what it is; the ones the patient added can be removed. */
function MobileList(props: { mobiles: PatientMobile[]; busy: boolean; onRemove: (mobile: string) => void }) {
  return (
    <ul className="order-list" aria-label={t('mobiles.list')}>
      {props.mobiles.map((m) => (
        <li key={m.mobileNumber} className="mobile-row">
          <span>{ukMobile(m.mobileNumber)}</span>
          {m.onRecord && <span className="hint">{t('mobiles.onRecord')}</span>}
          {!m.onRecord && !m.verified && <span className="hint">{t('mobiles.waiting')}</span>}
          {!m.onRecord && (
            <button
              className="link-button"
              type="button"
              onClick={() => props.onRemove(m.mobileNumber)}
              disabled={props.busy}
              aria-label={t('mobiles.removeNumber', { mobile: ukMobile(m.mobileNumber) })}
            >
              {t('mobiles.remove')}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The code texted to a number being added, which proves it is the patient's. */
function ConfirmForm(props: {
  pending: string;
  code: string;
  onCode: (code: string) => void;
  error?: string;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
}) {
  return (
    <form onSubmit={props.onSubmit} noValidate>
      <CodeField
        id="mobile-code"
        label={t('mobiles.codeLabel', { mobile: ukMobile(props.pending) })}
        hint={t('mobiles.codeHint')}
        error={props.error}
        value={props.code}
        onChange={props.onCode}
      />
      <FormActions submit={t('mobiles.add')} busy={props.busy}>
        <button className="link-button" type="button" onClick={props.onCancel}>
          {t('mobiles.cancel')}
        </button>
      </FormActions>
    </form>
  );
}

/** A number to add: a code is texted to it first. */
function NumberForm(props: {
  number: string;
  onNumber: (number: string) => void;
  error?: string;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
}) {
  return (
    <form onSubmit={props.onSubmit} noValidate>
      <TextField
        id="new-mobile"
        label={t('mobiles.numberLabel')}
        hint={t('mobiles.numberHint')}
        error={props.error}
        value={props.number}
        onChange={props.onNumber}
        inputMode="tel"
        autoComplete="tel"
        maxLength={30}
      />
      <button className="button button--secondary" type="submit" disabled={props.busy}>
        {t('mobiles.textCode')}
      </button>
    </form>
  );
}
