import {
  checkPatientRow,
  type FieldError,
  fixedPlan,
  type ImportedPatient,
  type MappingPlan,
  rowMessages,
  validationMessage,
} from '@medlocker/core';

/** A business's displayIdField feature setting (SPEC §3). */
export type DisplayIdField = { name: string; required: boolean; validateNhsNumber: boolean };

/**
 * What applies when a business has never saved its feature settings: an id is required (the import
 * and the upsert key need one) and any text is accepted, since we cannot know the business uses NHS
 * numbers.
 */
export const defaultDisplayIdField: DisplayIdField = { name: 'Patient ID', required: true, validateNhsNumber: false };

/** Reads the setting from the business_feature_settings jsonb, falling back field by field. */
export function displayIdFieldOf(settings: unknown): DisplayIdField {
  const field = (settings as { displayIdField?: Partial<DisplayIdField> } | null | undefined)?.displayIdField;
  return {
    name: typeof field?.name === 'string' && field.name ? field.name : defaultDisplayIdField.name,
    required: typeof field?.required === 'boolean' ? field.required : defaultDisplayIdField.required,
    validateNhsNumber:
      typeof field?.validateNhsNumber === 'boolean' ? field.validateNhsNumber : defaultDisplayIdField.validateNhsNumber,
  };
}

/** The columns of a patient as stored, checked and normalised. */
export type PatientValues = {
  displayId: string;
  givenName: string;
  familyName: string;
  fullName: string;
  dateOfBirth: string | null;
  email: string | null;
  mobileNumber: string;
  addressLine1: string | null;
  addressLine2: string | null;
  addressLine3: string | null;
  postTown: string | null;
  postcode: string | null;
};

export type PatientCheck = { ok: true; values: PatientValues } | { ok: false; errors: string[]; fields: FieldError[] };

const MAX_TEXT = 200;
const MAX_ID = 64;
const MAX_EMAIL = 254;

// The cells handed to core's row check, in this order; the plan below names them.
const DISPLAY_ID = 0;
const FULL = 1;
const GIVEN = 2;
const FAMILY = 3;
const COLUMNS: MappingPlan = {
  DateOfBirth: 4,
  Email: 5,
  Mobile: 6,
  AddressLine1: 7,
  AddressLine2: 8,
  AddressLine3: 9,
  PostTown: 10,
  Postcode: 11,
};

/** The four plans: [ID or NhsNumber] × [Given + Family or FullName], indexed (nhs ? 1 : 0) + (full ? 2 : 0). */
const PLANS: MappingPlan[] = [0, 1, 2, 3].map((k) =>
  fixedPlan({
    ...COLUMNS,
    ...(k & 1 ? { NhsNumber: DISPLAY_ID } : { ID: DISPLAY_ID }),
    ...(k & 2 ? { FullName: FULL } : { GivenName: GIVEN, FamilyName: FAMILY }),
  }),
);
const NAME_KEYS = ['full', 'given', 'family'] as const;
const ADDRESS_KEYS = ['line1', 'line2', 'line3', 'postTown', 'postcode'] as const;

/** Which field a SPEC §5 row message is about, for the per-field details of a 400. */
function fieldErrorOf(message: string): FieldError {
  if (message === rowMessages.missingName) return { path: 'patient.name', id: 'REQUIRED', message };
  if (message === rowMessages.missingId) return { path: 'patient.displayId', id: 'REQUIRED', message };
  if (message.startsWith('invalid NHS number')) return { path: 'patient.displayId', id: 'INVALID_NHS_NUMBER', message };
  if (message.startsWith('invalid date of birth')) return { path: 'patient.dateOfBirth', id: 'INVALID_DATE', message };
  if (message === rowMessages.invalidEmail) return { path: 'patient.email', id: 'INVALID_EMAIL', message };
  if (message === rowMessages.missingMobile) return { path: 'patient.mobileNumber', id: 'REQUIRED', message };
  if (message.startsWith('invalid mobile number'))
    return { path: 'patient.mobileNumber', id: 'INVALID_UK_MOBILE', message };
  const [path = 'patient', text = message] = message.split(': ', 2);
  return { path: `patient.${path}`, id: 'INVALID_LENGTH', message: text };
}

/**
 * The server's check of one patient, whatever the client checked: SPEC §5's per-row import rules,
 * run by core's own `checkPatientRow` (same messages, same normalisation: +447… mobiles, YYYY-MM-DD
 * dates, grouped postcodes), with the display id read as an NHS number when the business's
 * displayIdField says `validateNhsNumber`, and lengths bounded so a row fits its columns.
 * `displayId` may be blank only when `allowBlankId` (create/update with `required: false`); the
 * caller then gives the patient a generated one.
 */
export function checkPatient(
  patient: ImportedPatient,
  field: DisplayIdField,
  today: string,
  options: { allowBlankId?: boolean } = {},
): PatientCheck {
  const name = patient.name ?? {};
  // Address lines arrive as the file had them (core's import check passes them on untrimmed).
  const raw = patient.address ?? {};
  const address = {
    line1: raw.line1?.trim(),
    line2: raw.line2?.trim(),
    line3: raw.line3?.trim(),
    postTown: raw.postTown?.trim(),
    postcode: raw.postcode?.trim(),
  };
  const displayId = (patient.displayId ?? '').trim();
  const blankId = displayId === '' && options.allowBlankId === true;
  const cells = [
    blankId ? 'generated' : displayId,
    name.full ?? '',
    name.given ?? '',
    name.family ?? '',
    patient.dateOfBirth ?? '',
    patient.email ?? '',
    patient.mobileNumber ?? '',
    address.line1 ?? '',
    address.line2 ?? '',
    address.line3 ?? '',
    address.postTown ?? '',
    address.postcode ?? '',
  ];
  const hasFull = (name.full ?? '').trim() !== '' || (!name.given?.trim() && !name.family?.trim());
  const plan = PLANS[(field.validateNhsNumber && !blankId ? 1 : 0) + (hasFull ? 2 : 0)] as MappingPlan;
  const outcome = checkPatientRow(cells, plan, today);
  const errors = outcome.ok ? [] : [...outcome.errors];
  const tooLong = (label: string, value: string | undefined, max: number) => {
    if (value !== undefined && value.length > max) errors.push(`${label}: ${validationMessage.maxLength(max)}`);
  };
  tooLong('displayId', displayId, MAX_ID);
  tooLong('email', patient.email, MAX_EMAIL);
  for (const key of NAME_KEYS) tooLong(`name.${key}`, name[key], MAX_TEXT);
  for (const key of ADDRESS_KEYS) tooLong(`address.${key}`, address[key], MAX_TEXT);
  if (!outcome.ok || errors.length > 0) return { ok: false, errors, fields: errors.map(fieldErrorOf) };

  const p = outcome.patient;
  const given = name.given?.trim() ?? '';
  const family = name.family?.trim() ?? '';
  return {
    ok: true,
    values: {
      displayId: blankId ? '' : p.displayId,
      givenName: given,
      familyName: family,
      fullName: p.name.full ?? [given, family].filter(Boolean).join(' '),
      dateOfBirth: p.dateOfBirth ?? null,
      email: p.email ?? null,
      mobileNumber: p.mobileNumber,
      addressLine1: p.address?.line1 ?? null,
      addressLine2: p.address?.line2 ?? null,
      addressLine3: p.address?.line3 ?? null,
      postTown: p.address?.postTown ?? null,
      postcode: p.address?.postcode ?? null,
    },
  };
}

/**
 * The given and family names an update stores when it sends a full name only, as the console's edit
 * form does (one Name field, the name the patient is shown by). Without this an edit emptied them,
 * and list search, which also matches the family name, no longer found the patient by surname.
 * An unchanged full name keeps both; a changed one keeps the stored family name if it still ends
 * with it, else the given name if it still starts with it, and takes the rest as the other part
 * ('Jane Doe' renamed 'Jane Smith': given 'Jane', family 'Smith'); one sharing neither has none.
 * A name sent with its parts is stored as sent.
 */
export function namePartsOnUpdate(
  sent: ImportedPatient['name'] | undefined,
  values: PatientValues,
  stored: { full: string; given: string; family: string },
): Pick<PatientValues, 'givenName' | 'familyName'> {
  const asSent = { givenName: values.givenName, familyName: values.familyName };
  if (sent?.given?.trim() || sent?.family?.trim()) return asSent;
  const { given, family } = stored;
  const full = values.fullName;
  if (!given && !family) return asSent;
  if (full === stored.full) return { givenName: given, familyName: family };
  // Compared in slices of the same length, whatever lower-casing does to a string's length.
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (family && full.length > family.length + 1 && same(full.slice(-family.length - 1), ` ${family}`)) {
    return { givenName: full.slice(0, -family.length - 1).trim(), familyName: full.slice(-family.length) };
  }
  if (given && full.length > given.length + 1 && same(full.slice(0, given.length + 1), `${given} `)) {
    return { givenName: full.slice(0, given.length), familyName: full.slice(given.length + 1).trim() };
  }
  return asSent;
}
