import type { OnlineSignUp, SignUpBusiness } from '@medlocker/core';
import { type FormEvent, useState } from 'react';
import { ApiError, messageOf, rpc } from '../api.ts';
import {
  type ErrorItem,
  ErrorSummary,
  errorFor,
  FormActions,
  TextField,
  type TextFieldProps,
  useBusy,
} from '../form.tsx';
import { sayDetail } from '../i18n/errors.ts';
import { chosenLanguageField, t } from '../i18n/index.ts';
import { Page } from '../ui.tsx';
import { DateOfBirthFields, type DateParts, dateOfBirthOf } from './DateOfBirth.tsx';

/** A text field of the sign-up: the shared one, never spell-checked, 200 characters unless told. */
export const Field = (props: TextFieldProps) => (
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
type Form = typeof empty;

/** What can be told before asking the server: the required fields, a contact, the date. */
function localErrors(form: Form): { errors: ErrorItem[]; dateOfBirth?: string } {
  const found: ErrorItem[] = [];
  if (!form.firstName.trim()) found.push({ field: 'firstName', message: t('signUp.errorFirstName') });
  if (!form.lastName.trim()) found.push({ field: 'lastName', message: t('signUp.errorLastName') });
  const dob = dateOfBirthOf(form.day, form.month, form.year);
  if (dob.error) found.push({ field: 'dob-day', message: dob.error });
  if (!form.email.trim() && !form.mobileNumber.trim()) {
    found.push({ field: 'email', message: t('signUp.errorContact') });
  }
  return { errors: found, ...(dob.value ? { dateOfBirth: dob.value } : {}) };
}

/** The sign-up as the server takes it: trimmed, and a blank optional field as null. */
function signUpOf(form: Form, dateOfBirth: string) {
  const orNull = (v: string) => (v.trim() ? v.trim() : null);
  return {
    firstName: form.firstName.trim(),
    lastName: form.lastName.trim(),
    dateOfBirth,
    email: orNull(form.email),
    mobileNumber: orNull(form.mobileNumber),
    address: {
      line1: orNull(form.line1),
      line2: orNull(form.line2),
      line3: null,
      postTown: orNull(form.postTown),
      postcode: orNull(form.postcode),
    },
  };
}

/** The server's refusal: each field's first problem as it words it (SPEC §5), else one for the form. */
function refusalErrors(error: unknown): ErrorItem[] {
  if (!(error instanceof ApiError && error.details.some((d) => d.path))) return [{ message: messageOf(error) }];
  const seen = new Set<string>();
  return error.details.flatMap((d) => {
    const field = fieldIdOf(d.path);
    if (seen.has(field)) return [];
    seen.add(field);
    return [{ field, message: field === 'email' && d.id === 'REQUIRED' ? t('signUp.errorContact') : sayDetail(d) }];
  });
}

/** The first screen of a sign-up: name, date of birth, at least one contact, and an address if they like. */
export function SignUpForm(props: { business: SignUpBusiness; onStarted: (signUp: OnlineSignUp) => void }) {
  const [form, setForm] = useState(empty);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const { busy, run } = useBusy();
  const set = (key: keyof Form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const local = localErrors(form);
    const dateOfBirth = local.dateOfBirth;
    if (local.errors.length > 0 || !dateOfBirth) {
      setErrors(local.errors);
      return;
    }
    await run(
      async () => {
        const signUp = signUpOf(form, dateOfBirth);
        props.onStarted(
          await rpc('patientSignUps', 'create', {
            businessId: props.business.businessId,
            signUp,
            ...chosenLanguageField(),
          }),
        );
      },
      (error) => setErrors(refusalErrors(error)),
    );
  }

  /** A field of the form, named by its key (the input's id too). */
  const field = (key: keyof Form, label: string, autoComplete: string, more: Partial<TextFieldProps> = {}) => (
    <Field
      id={key}
      label={label}
      autoComplete={autoComplete}
      value={form[key]}
      onChange={set(key)}
      error={errorFor(errors, key)}
      {...more}
    />
  );

  return (
    <Page title={t('signUp.page')}>
      <ErrorSummary errors={errors} />
      <h1>{t('signUp.heading', { business: props.business.name })}</h1>
      <p>{t('signUp.lead')}</p>
      <form onSubmit={submit} noValidate>
        {field('firstName', t('signUp.firstName'), 'given-name', { maxLength: 100 })}
        {field('lastName', t('signUp.lastName'), 'family-name', { maxLength: 100 })}
        <DateOfBirthFields
          legend={t('signUp.dateOfBirth')}
          legendClassName="label"
          value={form}
          onChange={(part: keyof DateParts, value) => set(part)(value)}
          error={errorFor(errors, 'dob-day')}
        />
        <h2>{t('signUp.contact')}</h2>
        <p className="hint">{t('signUp.contactHint')}</p>
        {field('email', t('signUp.email'), 'email', { type: 'email' })}
        {field('mobileNumber', t('signUp.mobile'), 'tel', {
          hint: t('signUp.mobileHint'),
          type: 'tel',
          maxLength: 30,
        })}
        <h2>{t('signUp.address')}</h2>
        {field('line1', t('signUp.line1'), 'address-line1')}
        {field('line2', t('signUp.line2'), 'address-line2')}
        {field('postTown', t('signUp.postTown'), 'address-level2')}
        {field('postcode', t('signUp.postcode'), 'postal-code', { className: 'input--postcode', maxLength: 10 })}
        <FormActions submit={t('signUp.submit')} busy={busy} />
      </form>
    </Page>
  );
}
