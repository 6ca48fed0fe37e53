import type { PatientSessionInfo } from '@medlocker/core';
import { type FormEvent, useState } from 'react';
import { ApiError, rpc } from '../api.ts';
import {
  CodeField,
  type ErrorItem,
  ErrorSummary,
  errorFor,
  errorsOf,
  FormActions,
  sixDigits,
  useBusy,
} from '../form.tsx';
import { t } from '../i18n/index.ts';
import { Page, StatusNotice } from '../ui.tsx';
import { DateOfBirthFields, type DateParts, dateOfBirthOf, noDate } from './DateOfBirth.tsx';
import { NhsLoginOption, nhsLoginRefusalInUrl, useForgetNhsLoginRefusal, useNhsLoginOffered } from './NhsLogin.tsx';

/**
 * Before anything personal: the patient confirms their date of birth for the order their link names,
 * or asks for a code by text and enters it, or (where the business offers it) continues with NHS login. Nothing about the order or the patient is shown here (not
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

/**
 * A failed check as errors on the form: the server's per-field messages, else one for the form, or
 * for `field` when it is the lock (429) that field's tries ran into.
 */
function checkErrorsOf(error: unknown, field: string): ErrorItem[] {
  const locked = error instanceof ApiError && error.status === 429;
  return errorsOf(
    error,
    (path) => (path === 'dateOfBirth' ? 'dob-day' : path || undefined),
    locked ? field : undefined,
  );
}

/**
 * What each step shares: its errors, one request at a time, and its form's submit: the value typed,
 * checked here first (the problem beside `field`), then sent to `verify`, which signs the patient in.
 * An order no one can open is Not found; anything else the server says goes on the form.
 */
function useStep(props: StepProps, initial: () => ErrorItem[] = () => []) {
  const [errors, setErrors] = useState<ErrorItem[]>(initial);
  const { busy, run } = useBusy();
  const failed =
    (field: string, show: (found: ErrorItem[]) => void = setErrors) =>
    (error: unknown) =>
      error instanceof ApiError && error.status === 404 ? props.onNotFound() : show(checkErrorsOf(error, field));
  const submitter =
    (
      field: string,
      check: () => { value?: string; error: string },
      verify: (value: string) => Promise<PatientSessionInfo>,
    ) =>
    async (event: FormEvent) => {
      event.preventDefault();
      if (busy) return;
      const { value, error } = check();
      if (!value) {
        setErrors([{ field, message: error }]);
        return;
      }
      await run(async () => props.onVerified(await verify(value)), failed(field));
    };
  return { errors, setErrors, busy, run, failed, submitter };
}

function DateOfBirthStep(props: StepProps & { onUseCode: (endings: string[]) => void }) {
  const [date, setDate] = useState<DateParts>(noDate);
  const { errors, setErrors, busy, run, failed, submitter } = useStep(props, () => {
    const refusal = nhsLoginRefusalInUrl();
    return refusal ? [{ message: refusal }] : [];
  });
  useForgetNhsLoginRefusal();
  const nhsLogin = useNhsLoginOffered(props.orderId);
  const submit = submitter(
    'dob-day',
    () => {
      const checked = dateOfBirthOf(date.day, date.month, date.year);
      return { value: checked.value, error: checked.error ?? t('date.errorInvalid') };
    },
    (dateOfBirth) => rpc('auth', 'verifyPatient', { orderId: props.orderId, dateOfBirth }),
  );

  const textMe = () =>
    run(
      async () => {
        const sent = await rpc('auth', 'verifySms', { orderId: props.orderId });
        props.onUseCode(sent.mobileEndings);
      },
      failed('text-me', (found) =>
        setErrors(found.map((e) => ({ ...e, field: e.field === 'orderId' ? undefined : e.field }))),
      ),
    );

  return (
    <Page title={t('identity.heading')}>
      {props.notice && <StatusNotice text={props.notice} />}
      <ErrorSummary errors={errors} />
      <h1>{t('identity.heading')}</h1>
      <p>{t('identity.why')}</p>
      <form onSubmit={submit} noValidate>
        <DateOfBirthFields
          legend={t('identity.dateOfBirth')}
          legendClassName="legend-heading"
          value={date}
          onChange={(part, value) => setDate((d) => ({ ...d, [part]: value }))}
          error={errorFor(errors, 'dob-day')}
        />
        <FormActions submit={t('identity.continue')} busy={busy} />
      </form>
      <h2>{t('identity.noDate')}</h2>
      <p>{t('identity.textOffer')}</p>
      <button className="button button--secondary" type="button" id="text-me" onClick={textMe} disabled={busy}>
        {t('identity.textMe')}
      </button>
      {nhsLogin && (
        <NhsLoginOption
          orderId={props.orderId}
          busy={busy}
          run={run}
          failed={failed('nhs-login', (found) =>
            setErrors(found.map((e) => ({ ...e, field: e.field === 'orderId' ? undefined : e.field }))),
          )}
        />
      )}
    </Page>
  );
}

function CodeStep(
  props: StepProps & { sentTo: string[]; onResent: (endings: string[]) => void; onUseDate: () => void },
) {
  const [code, setCode] = useState('');
  const [resent, setResent] = useState(false);
  const { errors, setErrors, busy, run, submitter } = useStep(props);
  const submit = submitter(
    'code',
    () => ({ value: sixDigits(code) ?? undefined, error: t('codes.errorText') }),
    (digits) => rpc('auth', 'verifySmsCode', { orderId: props.orderId, code: digits }),
  );

  const resend = () =>
    run(
      async () => {
        const sent = await rpc('auth', 'verifySms', { orderId: props.orderId });
        props.onResent(sent.mobileEndings);
        setResent(true);
        setErrors([]);
      },
      (error) => setErrors(checkErrorsOf(error, 'code')),
    );

  const endings = props.sentTo.join(', ');
  return (
    <Page title={t('identity.codeTitle')}>
      <ErrorSummary errors={errors} />
      <h1>{t('identity.codeTitle')}</h1>
      <p role="status">
        {t(resent ? 'identity.codeResent' : 'identity.codeSent', { count: props.sentTo.length, endings })}
      </p>
      <form onSubmit={submit} noValidate>
        <CodeField
          id="code"
          label={t('identity.code')}
          hint={t('codes.hint')}
          error={errorFor(errors, 'code')}
          value={code}
          onChange={setCode}
          spellCheck={false}
        />
        <FormActions submit={t('identity.continue')} busy={busy} />
      </form>
      <p>
        <button className="link-button" type="button" onClick={resend} disabled={busy}>
          {t('identity.sendNew')}
        </button>
      </p>
      <p>
        <button className="link-button" type="button" onClick={props.onUseDate}>
          {t('identity.useDate')}
        </button>
      </p>
    </Page>
  );
}
