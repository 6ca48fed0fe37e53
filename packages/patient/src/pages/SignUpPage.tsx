import type { OnlineSignUp, SignUpBusiness } from '@medlocker/core';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, messageOf, rpc } from '../api.ts';
import { type ErrorItem, ErrorSummary, Loading, Page, TextField } from '../ui.tsx';
import { dateOfBirthOf } from './IdentityCheck.tsx';
import { NotFound } from './NotFound.tsx';

/*
 * `/signup/{businessId}`: a new patient signs up with a pharmacy that takes sign-ups online
 * (docs/DECISIONS.md, "Online sign-ups (issue 19)"). Three screens: the form; a code for each contact
 * given (with a way to send new ones); then thanks. The server keeps the sign-up behind an HttpOnly
 * cookie, so a reload comes back to the screen the patient was on.
 */

type Loaded =
  | { state: 'loading' }
  | { state: 'closed'; message: string }
  | { state: 'error'; message: string }
  | { state: 'open'; business: SignUpBusiness; signUp: OnlineSignUp | null };

export function SignUpPage({ businessId }: { businessId: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const business = await rpc('patientSignUps', 'business', { businessId });
        // A sign-up this browser already started with this pharmacy picks up where it was.
        const signUp = await rpc('patientSignUps', 'get').catch(() => null);
        if (live) setLoaded({ state: 'open', business, signUp: signUp?.businessId === businessId ? signUp : null });
      } catch (error) {
        if (!live) return;
        if (error instanceof ApiError && error.status === 404) setLoaded({ state: 'closed', message: error.message });
        else setLoaded({ state: 'error', message: messageOf(error) });
      }
    })();
    return () => {
      live = false;
    };
  }, [businessId]);

  if (loaded.state === 'loading') return <Loading title="Sign up" />;
  if (loaded.state === 'closed') return <NotFound message={loaded.message} />;
  if (loaded.state === 'error') {
    return (
      <Page title="Sign up">
        <h1>Sign up</h1>
        <p role="alert">{loaded.message}</p>
      </Page>
    );
  }
  const { business, signUp } = loaded;
  const show = (next: OnlineSignUp | null) => setLoaded({ state: 'open', business, signUp: next });
  if (signUp === null) return <SignUpForm business={business} onStarted={show} />;
  if (signUp.status === 'new') return <CodesStep signUp={signUp} onChange={show} onStartAgain={() => show(null)} />;
  return <Thanks signUp={signUp} />;
}

/** A text field of the form: the shared one, never spell-checked, 200 characters unless told. */
const Field = (props: Parameters<typeof TextField>[0]) => (
  <TextField {...props} maxLength={props.maxLength ?? 200} spellCheck={false} />
);

/** The server's field path (`signUp.address.postcode`) as the id of the input showing it. */
const fieldIdOf = (path: string) => {
  const field = path.replace(/^signUp\./, '').replace(/^address\./, '');
  return field === 'dateOfBirth' ? 'dob-day' : field;
};

const empty = {
  firstName: '',
  lastName: '',
  day: '',
  month: '',
  year: '',
  email: '',
  mobileNumber: '',
  line1: '',
  line2: '',
  postTown: '',
  postcode: '',
};

function SignUpForm(props: { business: SignUpBusiness; onStarted: (signUp: OnlineSignUp) => void }) {
  const [form, setForm] = useState(empty);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof empty) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const errorOf = (id: string) => errors.find((e) => e.field === id)?.message;

  /** What can be told before asking the server: the required fields, a contact, the date. */
  function localErrors(): { errors: ErrorItem[]; dateOfBirth?: string } {
    const found: ErrorItem[] = [];
    if (!form.firstName.trim()) found.push({ field: 'firstName', message: 'Enter your first name' });
    if (!form.lastName.trim()) found.push({ field: 'lastName', message: 'Enter your last name' });
    const dob = dateOfBirthOf(form.day, form.month, form.year);
    if (dob.error) found.push({ field: 'dob-day', message: dob.error });
    if (!form.email.trim() && !form.mobileNumber.trim()) {
      found.push({ field: 'email', message: 'Enter an email address or a mobile number, so we can check it is you' });
    }
    return { errors: found, ...(dob.value ? { dateOfBirth: dob.value } : {}) };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const local = localErrors();
    if (local.errors.length > 0 || !local.dateOfBirth) {
      setErrors(local.errors);
      return;
    }
    const orNull = (v: string) => (v.trim() ? v.trim() : null);
    setBusy(true);
    try {
      const signUp = await rpc('patientSignUps', 'create', {
        businessId: props.business.businessId,
        signUp: {
          firstName: form.firstName.trim(),
          lastName: form.lastName.trim(),
          dateOfBirth: local.dateOfBirth,
          email: orNull(form.email),
          mobileNumber: orNull(form.mobileNumber),
          address: {
            line1: orNull(form.line1),
            line2: orNull(form.line2),
            line3: null,
            postTown: orNull(form.postTown),
            postcode: orNull(form.postcode),
          },
        },
      });
      props.onStarted(signUp);
    } catch (error) {
      if (error instanceof ApiError && error.details.some((d) => d.path)) {
        // Each field's first problem, as the server words it (SPEC §5).
        const seen = new Set<string>();
        setErrors(
          error.details.flatMap((d) => {
            const field = fieldIdOf(d.path);
            if (seen.has(field)) return [];
            seen.add(field);
            return [{ field, message: field === 'email' && d.id === 'REQUIRED' ? error.message : d.message }];
          }),
        );
      } else {
        setErrors([{ message: messageOf(error) }]);
      }
    } finally {
      setBusy(false);
    }
  }

  const dobError = errorOf('dob-day');
  const datePart = (id: string, label: string, key: 'day' | 'month' | 'year', auto: string) => (
    <div className={`date-input__item${key === 'year' ? ' date-input__item--year' : ''}`}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={id}
        className={`input${dobError ? ' input--error' : ''}`}
        inputMode="numeric"
        autoComplete={auto}
        maxLength={key === 'year' ? 4 : 2}
        value={form[key]}
        onChange={(event) => set(key)(event.target.value)}
      />
    </div>
  );

  return (
    <Page title="Sign up">
      <ErrorSummary errors={errors} />
      <h1>Sign up with {props.business.name}</h1>
      <p>
        Give your details and the pharmacy will add you as a patient. We will send a code to your email address and
        mobile to check they are yours.
      </p>
      <form onSubmit={submit} noValidate>
        <Field
          id="firstName"
          label="First name"
          autoComplete="given-name"
          value={form.firstName}
          onChange={set('firstName')}
          error={errorOf('firstName')}
          maxLength={100}
        />
        <Field
          id="lastName"
          label="Last name"
          autoComplete="family-name"
          value={form.lastName}
          onChange={set('lastName')}
          error={errorOf('lastName')}
          maxLength={100}
        />
        <div className={`form-group${dobError ? ' form-group--error' : ''}`}>
          <fieldset aria-describedby={`dob-hint${dobError ? ' dob-error' : ''}`}>
            <legend className="label">Date of birth</legend>
            <span className="hint" id="dob-hint">
              For example, 27 3 1985
            </span>
            {dobError && (
              <span className="error-message" id="dob-error">
                <span className="visually-hidden">Error:</span> {dobError}
              </span>
            )}
            <div className="date-input">
              {datePart('dob-day', 'Day', 'day', 'bday-day')}
              {datePart('dob-month', 'Month', 'month', 'bday-month')}
              {datePart('dob-year', 'Year', 'year', 'bday-year')}
            </div>
          </fieldset>
        </div>
        <h2>How we can contact you</h2>
        <p className="hint">Give at least one. Each gets a code to check it is yours.</p>
        <Field
          id="email"
          label="Email address (optional)"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={set('email')}
          error={errorOf('email')}
        />
        <Field
          id="mobileNumber"
          label="UK mobile number (optional)"
          hint="For example, 07700 900123"
          type="tel"
          autoComplete="tel"
          value={form.mobileNumber}
          onChange={set('mobileNumber')}
          error={errorOf('mobileNumber')}
          maxLength={30}
        />
        <h2>Your address (optional)</h2>
        <Field
          id="line1"
          label="Address line 1"
          autoComplete="address-line1"
          value={form.line1}
          onChange={set('line1')}
          error={errorOf('line1')}
        />
        <Field
          id="line2"
          label="Address line 2"
          autoComplete="address-line2"
          value={form.line2}
          onChange={set('line2')}
          error={errorOf('line2')}
        />
        <Field
          id="postTown"
          label="Town or city"
          autoComplete="address-level2"
          value={form.postTown}
          onChange={set('postTown')}
          error={errorOf('postTown')}
        />
        <Field
          id="postcode"
          label="Postcode"
          autoComplete="postal-code"
          className="input--postcode"
          value={form.postcode}
          onChange={set('postcode')}
          error={errorOf('postcode')}
          maxLength={10}
        />
        <div className="actions">
          <button className="button" type="submit" disabled={busy}>
            Sign up
          </button>
        </div>
      </form>
    </Page>
  );
}

/** What a contact's check says, beside its code field. */
function codeProblem(status: string, attemptsLeft: number): string | undefined {
  if (status === 'codeIncorrect') {
    return attemptsLeft > 0
      ? `The code is not right. You can try ${attemptsLeft} more time${attemptsLeft === 1 ? '' : 's'}.`
      : 'The code is not right, and it has been tried too many times. Send new codes.';
  }
  if (status === 'codeExpired') return 'This code has expired or has been tried too many times. Send new codes.';
  return undefined;
}

function CodesStep(props: {
  signUp: OnlineSignUp;
  onChange: (signUp: OnlineSignUp) => void;
  onStartAgain: () => void;
}) {
  const { signUp } = props;
  const v = signUp.verification;
  const [codes, setCodes] = useState({ email: '', mobile: '' });
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const wantsEmail = signUp.email !== null && v.emailCodeStatus !== 'verified';
  const wantsMobile = signUp.mobileNumber !== null && v.mobileCodeStatus !== 'verified';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const email = codes.email.replace(/\s+/g, '');
    const mobile = codes.mobile.replace(/\s+/g, '');
    const found: ErrorItem[] = [];
    if (wantsEmail && !/^\d{6}$/.test(email))
      found.push({ field: 'emailCode', message: 'Enter the 6-digit code from the email' });
    if (wantsMobile && !/^\d{6}$/.test(mobile)) {
      found.push({ field: 'mobileCode', message: 'Enter the 6-digit code from the text message' });
    }
    // One code may be checked while the other is still on its way.
    if (found.length === Number(wantsEmail) + Number(wantsMobile)) {
      setErrors(found);
      return;
    }
    setBusy(true);
    setNotice(undefined);
    try {
      const next = await rpc('patientSignUps', 'verify', {
        emailCode: wantsEmail && /^\d{6}$/.test(email) ? email : null,
        mobileCode: wantsMobile && /^\d{6}$/.test(mobile) ? mobile : null,
      });
      const nv = next.verification;
      const problems: ErrorItem[] = [];
      const emailProblem = wantsEmail ? codeProblem(nv.emailCodeStatus, nv.emailAttemptsLeft) : undefined;
      const mobileProblem = wantsMobile ? codeProblem(nv.mobileCodeStatus, nv.mobileAttemptsLeft) : undefined;
      if (emailProblem && email) problems.push({ field: 'emailCode', message: emailProblem });
      if (mobileProblem && mobile) problems.push({ field: 'mobileCode', message: mobileProblem });
      setErrors(problems);
      setCodes((c) => ({
        email: nv.emailCodeStatus === 'verified' ? '' : c.email,
        mobile: nv.mobileCodeStatus === 'verified' ? '' : c.mobile,
      }));
      props.onChange(next);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return props.onStartAgain();
      setErrors([{ message: messageOf(error) }]);
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    if (busy) return;
    setBusy(true);
    try {
      const next = await rpc('patientSignUps', 'resendCodes');
      setErrors([]);
      setCodes({ email: '', mobile: '' });
      setNotice('We have sent new codes. Earlier codes no longer work.');
      props.onChange(next);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return props.onStartAgain();
      setErrors([{ message: messageOf(error) }]);
    } finally {
      setBusy(false);
    }
  }

  const errorOf = (id: string) => errors.find((e) => e.field === id)?.message;
  return (
    <Page title="Check it is you">
      <ErrorSummary errors={errors} />
      <h1>Check it is you</h1>
      <p>We have sent a 6-digit code to each contact you gave. The codes work for 15 minutes.</p>
      {notice && (
        <div className="notice" role="status">
          <p>{notice}</p>
        </div>
      )}
      {signUp.email !== null && v.emailCodeStatus === 'verified' && (
        <p className="notice notice--ok">Email address {signUp.email} confirmed.</p>
      )}
      {signUp.mobileNumber !== null && v.mobileCodeStatus === 'verified' && (
        <p className="notice notice--ok">Mobile number {signUp.mobileNumber} confirmed.</p>
      )}
      <form onSubmit={submit} noValidate>
        {wantsEmail && (
          <Field
            id="emailCode"
            label={`Code from the email to ${signUp.email}`}
            hint="The code is 6 numbers, for example 123456"
            inputMode="numeric"
            autoComplete="one-time-code"
            className="input--code"
            value={codes.email}
            onChange={(email) => setCodes((c) => ({ ...c, email }))}
            error={errorOf('emailCode')}
            maxLength={10}
          />
        )}
        {wantsMobile && (
          <Field
            id="mobileCode"
            label={`Code from the text to ${signUp.mobileNumber}`}
            hint="The code is 6 numbers, for example 123456"
            inputMode="numeric"
            autoComplete="one-time-code"
            className="input--code"
            value={codes.mobile}
            onChange={(mobile) => setCodes((c) => ({ ...c, mobile }))}
            error={errorOf('mobileCode')}
            maxLength={10}
          />
        )}
        <div className="actions">
          <button className="button" type="submit" disabled={busy}>
            Continue
          </button>
        </div>
      </form>
      <h2>No code?</h2>
      <p>Codes can take a few minutes to arrive. Check your spam folder for the email.</p>
      {signUp.resendAfter !== null ? (
        <p>
          <button className="button button--secondary" type="button" onClick={resend} disabled={busy}>
            Send new codes
          </button>
        </p>
      ) : (
        <p>We cannot send more codes for this sign-up. Please contact the pharmacy.</p>
      )}
      <p>
        <button className="link-button" type="button" onClick={props.onStartAgain}>
          Change my details
        </button>
      </p>
    </Page>
  );
}

function Thanks({ signUp }: { signUp: OnlineSignUp }) {
  return (
    <Page title="Thank you">
      <div className="panel">
        <h1>Thank you — the pharmacy will be in touch</h1>
        <p>{signUp.businessName} has your details. They will contact you to finish adding you as a patient.</p>
      </div>
      <p>You can close this page.</p>
    </Page>
  );
}
