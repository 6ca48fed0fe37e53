import type { Address, ImportedPatient } from '@medlocker/core';
import { TextField } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';
import { dateOfBirthOf } from './patient-format.ts';

/**
 * The form pieces a patient and a sign-up share (SPEC §3: the same date of birth, contacts and
 * address, checked by the server with the same SPEC §5 rules and messages).
 */

export const addressFields = ['line1', 'line2', 'line3', 'postTown', 'postcode'] as const;

/** DD-MM-YYYY (as shown) or YYYY-MM-DD → YYYY-MM-DD; anything else is sent as typed for the server to refuse. */
export function isoDateOf(text: string): string {
  const m = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/.exec(text);
  return m ? `${m[3]}-${m[2]?.padStart(2, '0')}-${m[1]?.padStart(2, '0')}` : text;
}

/** A form's trimmed text field, '' when absent. */
export const textOf = (data: FormData, name: string) => String(data.get(name) ?? '').trim();

/** The details an order needs of a patient, as typed in (date of birth and email only when given). */
export function basicPatientOf(data: FormData): ImportedPatient {
  const text = (name: string) => textOf(data, name);
  return {
    displayId: text('displayId'),
    name: { full: text('name') },
    mobileNumber: text('mobileNumber'),
    ...(text('dateOfBirth') ? { dateOfBirth: isoDateOf(text('dateOfBirth')) } : {}),
    ...(text('email') ? { email: text('email') } : {}),
  };
}

/** The address lines filled in, by their contract names (a blank line is left out). */
export function filledAddressOf(data: FormData): Partial<Record<(typeof addressFields)[number], string>> {
  const address: Partial<Record<(typeof addressFields)[number], string>> = {};
  for (const name of addressFields) if (textOf(data, name)) address[name] = textOf(data, name);
  return address;
}

/**
 * The form's field name of a server field path ('patient.name.full' → 'name', 'signUp.address.postcode'
 * → 'postcode'), for useSubmit.
 */
export function detailFieldName(path: string): string {
  const parts = path.split('.');
  return parts.includes('name') ? 'name' : (parts[parts.length - 1] ?? path);
}

type Details = {
  dateOfBirth: string | null;
  email: string | null;
  mobileNumber: string | null;
  address: Address | null;
};

/** Date of birth (shown DD-MM-YYYY), email, mobile and the address lines, pre-filled from `value`. */
export function DetailFields({
  value,
  mobileRequired = false,
  mobileDescription,
}: {
  value: Details;
  mobileRequired?: boolean;
  mobileDescription?: string;
}) {
  return (
    <>
      <TextField
        label={t('patients.field.dateOfBirth')}
        name="dateOfBirth"
        description={t('patients.field.dateHint')}
        defaultValue={value.dateOfBirth ? dateOfBirthOf(value.dateOfBirth) : ''}
      />
      <TextField label={t('patients.field.email')} name="email" type="email" defaultValue={value.email ?? ''} />
      <TextField
        label={t('patients.field.mobile')}
        name="mobileNumber"
        isRequired={mobileRequired}
        description={mobileDescription}
        defaultValue={value.mobileNumber ?? ''}
      />
      {addressFields.map((name) => (
        <TextField
          key={name}
          label={t(`patients.field.${name}` as const)}
          name={name}
          defaultValue={value.address?.[name] ?? ''}
        />
      ))}
    </>
  );
}
