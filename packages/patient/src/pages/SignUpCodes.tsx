import type { OnlineSignUp } from '@medlocker/core';
import { type FormEvent, useState } from 'react';
import { ApiError, messageOf, rpc } from '../api.ts';
import { CodeField, type ErrorItem, ErrorSummary, errorFor, FormActions, sixDigits, useBusy } from '../form.tsx';
import { chosenLanguageField, t } from '../i18n/index.ts';
import { Page, StatusNotice } from '../ui.tsx';

/** What a contact's check says, beside its code field. */
function codeProblem(status: string, attemptsLeft: number): string | undefined {
  if (status === 'codeIncorrect') {
    return attemptsLeft > 0 ? t('codes.wrong', { count: attemptsLeft }) : t('codes.wrongNoMore');
  }
  if (status === 'codeExpired') return t('codes.expired');
  return undefined;
}

/** After a check: the problem beside each code that was typed and is still not confirmed. */
function problemsAfter(next: OnlineSignUp, typed: { email: string; mobile: string }, wants: Wants): ErrorItem[] {
  const nv = next.verification;
  const problems: ErrorItem[] = [];
  const emailProblem = wants.email ? codeProblem(nv.emailCodeStatus, nv.emailAttemptsLeft) : undefined;
  const mobileProblem = wants.mobile ? codeProblem(nv.mobileCodeStatus, nv.mobileAttemptsLeft) : undefined;
  if (emailProblem && typed.email) problems.push({ field: 'emailCode', message: emailProblem });
  if (mobileProblem && typed.mobile) problems.push({ field: 'mobileCode', message: mobileProblem });
  return problems;
}

/** Which contacts still need their code. */
type Wants = { email: boolean; mobile: boolean };

/** The codes as typed (spaces taken out), the ones to check, and a problem for each wanted one that is not 6 digits. */
function codesTyped(codes: { email: string; mobile: string }, wants: Wants) {
  const typed = { email: codes.email.replace(/\s+/g, ''), mobile: codes.mobile.replace(/\s+/g, '') };
  const emailCode = wants.email ? sixDigits(typed.email) : null;
  const mobileCode = wants.mobile ? sixDigits(typed.mobile) : null;
  const found: ErrorItem[] = [];
  if (wants.email && !emailCode) found.push({ field: 'emailCode', message: t('codes.errorEmail') });
  if (wants.mobile && !mobileCode) {
    found.push({ field: 'mobileCode', message: t('codes.errorText') });
  }
  return { typed, emailCode, mobileCode, found };
}

/** The contacts whose codes were right. */
function Confirmed({ signUp }: { signUp: OnlineSignUp }) {
  const v = signUp.verification;
  return (
    <>
      {signUp.email !== null && v.emailCodeStatus === 'verified' && (
        <p className="notice notice--ok">{t('codes.emailConfirmed', { email: signUp.email })}</p>
      )}
      {signUp.mobileNumber !== null && v.mobileCodeStatus === 'verified' && (
        <p className="notice notice--ok">{t('codes.mobileConfirmed', { mobile: signUp.mobileNumber })}</p>
      )}
    </>
  );
}

/** New codes while the server allows them, and a way back to the form. */
function NoCode(props: { canResend: boolean; busy: boolean; onResend: () => void; onStartAgain: () => void }) {
  return (
    <>
      <h2>{t('codes.none')}</h2>
      <p>{t('codes.mayTakeMinutes')}</p>
      {props.canResend ? (
        <p>
          <button className="button button--secondary" type="button" onClick={props.onResend} disabled={props.busy}>
            {t('codes.sendNew')}
          </button>
        </p>
      ) : (
        <p>{t('codes.noMore')}</p>
      )}
      <p>
        <button className="link-button" type="button" onClick={props.onStartAgain}>
          {t('codes.changeDetails')}
        </button>
      </p>
    </>
  );
}

/**
 * The second screen of a sign-up: the code sent to each contact given, with a way to send new ones
 * (while the server allows) or to start again with other details.
 */
export function SignUpCodes(props: {
  signUp: OnlineSignUp;
  onChange: (signUp: OnlineSignUp) => void;
  onStartAgain: () => void;
}) {
  const { signUp } = props;
  const v = signUp.verification;
  const [codes, setCodes] = useState({ email: '', mobile: '' });
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [notice, setNotice] = useState<string>();
  const { busy, run } = useBusy();
  const wants: Wants = {
    email: signUp.email !== null && v.emailCodeStatus !== 'verified',
    mobile: signUp.mobileNumber !== null && v.mobileCodeStatus !== 'verified',
  };
  // The sign-up is gone (expired, or finished elsewhere): the form again.
  const failed = (error: unknown) =>
    error instanceof ApiError && error.status === 404
      ? props.onStartAgain()
      : setErrors([{ message: messageOf(error) }]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const { typed, emailCode, mobileCode, found } = codesTyped(codes, wants);
    // One code may be checked while the other is still on its way.
    if (found.length === Number(wants.email) + Number(wants.mobile)) {
      setErrors(found);
      return;
    }
    await run(async () => {
      setNotice(undefined);
      const next = await rpc('patientSignUps', 'verify', { emailCode, mobileCode, ...chosenLanguageField() });
      setErrors(problemsAfter(next, typed, wants));
      setCodes((c) => ({
        email: next.verification.emailCodeStatus === 'verified' ? '' : c.email,
        mobile: next.verification.mobileCodeStatus === 'verified' ? '' : c.mobile,
      }));
      props.onChange(next);
    }, failed);
  }

  const resend = () =>
    run(async () => {
      const next = await rpc('patientSignUps', 'resendCodes', chosenLanguageField());
      setErrors([]);
      setCodes({ email: '', mobile: '' });
      setNotice(t('codes.sentNew'));
      props.onChange(next);
    }, failed);

  const codeField = (key: keyof Wants, label: string) => (
    <CodeField
      id={`${key}Code`}
      label={label}
      hint={t('codes.hint')}
      value={codes[key]}
      onChange={(code) => setCodes((c) => ({ ...c, [key]: code }))}
      error={errorFor(errors, `${key}Code`)}
      spellCheck={false}
    />
  );

  return (
    <Page title={t('codes.title')}>
      <ErrorSummary errors={errors} />
      <h1>{t('codes.title')}</h1>
      <p>{t('codes.lead')}</p>
      {notice && <StatusNotice text={notice} />}
      <Confirmed signUp={signUp} />
      <form onSubmit={submit} noValidate>
        {wants.email && codeField('email', t('codes.emailLabel', { email: signUp.email ?? '' }))}
        {wants.mobile && codeField('mobile', t('codes.mobileLabel', { mobile: signUp.mobileNumber ?? '' }))}
        <FormActions submit={t('identity.continue')} busy={busy} />
      </form>
      <NoCode canResend={signUp.resendAfter !== null} busy={busy} onResend={resend} onStartAgain={props.onStartAgain} />
    </Page>
  );
}
