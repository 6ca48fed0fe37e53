import {
  checkPatientRow,
  type FieldError,
  FormCheck,
  fixedPlan,
  type ImportedPatient,
  type MappingPlan,
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

/** An import row's check: the patient's columns, or SPEC §5's per-row messages. */
export type RowCheck = { ok: true; values: PatientValues } | { ok: false; errors: string[] };
/** A form's check: the patient's columns, or each field's id and message in the forms' words. */
export type PatientCheck = { ok: true; values: PatientValues } | { ok: false; fields: FieldError[] };

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

/**
 * The server's check of one patient of an import batch, whatever the client checked: SPEC §5's
 * per-row import rules, run by core's own `checkPatientRow` (same messages, same normalisation: +447…
 * mobiles, YYYY-MM-DD dates, grouped postcodes), with the display id read as an NHS number when the
 * business's displayIdField says `validateNhsNumber`, and lengths bounded so a row fits its columns.
 * The display id is always required: it is the upsert's key. Forms go through {@link checkPatientForm}.
 */
export function checkPatient(patient: ImportedPatient, field: DisplayIdField, today: string): RowCheck {
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
  const cells = [
    displayId,
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
  const plan = PLANS[(field.validateNhsNumber ? 1 : 0) + (hasFull ? 2 : 0)] as MappingPlan;
  const outcome = checkPatientRow(cells, plan, today);
  const errors = outcome.ok ? [] : [...outcome.errors];
  const tooLong = (label: string, value: string | undefined, max: number) => {
    if (value !== undefined && value.length > max) errors.push(`${label}: ${validationMessage.maxLength(max)}`);
  };
  tooLong('displayId', displayId, MAX_ID);
  tooLong('email', patient.email, MAX_EMAIL);
  for (const key of NAME_KEYS) tooLong(`name.${key}`, name[key], MAX_TEXT);
  for (const key of ADDRESS_KEYS) tooLong(`address.${key}`, address[key], MAX_TEXT);
  if (!outcome.ok || errors.length > 0) return { ok: false, errors };

  const p = outcome.patient;
  const given = name.given?.trim() ?? '';
  const family = name.family?.trim() ?? '';
  return {
    ok: true,
    values: {
      displayId: p.displayId,
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
 * The version of an import's row rules (checkPatient, core's checkPatientRow, the upsert's name rule):
 * part of every import digest, so raising it sends the next import of every row through the rules again.
 */
export const IMPORT_RULES_VERSION = 1;

/**
 * A digest of a row as an import sent it (after the contract's check): its fields in a fixed order
 * (whatever order the client's JSON had them in; an absent field is not an empty one), with what its check depended
 * on, the business's NHS-number rule and the rules' version. Kept as `patients.import_digest` by the rows
 * the import writes; the same digest on an untouched patient means the row is unchanged
 * (importedUnchanged). SHA-256 cut to 128 bits: a changed row taken for unchanged would silently keep old details.
 */
export function importDigest(patient: ImportedPatient, field: DisplayIdField): string {
  const { name, address } = patient;
  const text =
    `${IMPORT_RULES_VERSION}|${field.validateNhsNumber ? 1 : 0}|${part(patient.displayId)}${part(name.full)}` +
    `${part(name.given)}${part(name.family)}${part(patient.dateOfBirth)}${part(patient.email)}` +
    `${part(patient.mobileNumber)}${part(address?.line1)}${part(address?.line2)}${part(address?.line3)}` +
    `${part(address?.postTown)}${part(address?.postcode)}`;
  return Bun.SHA256.hash(text, 'hex').slice(0, 32);
}

/** A field in a digest's text, its length first (so no two rows' fields run together the same), `-` absent. */
const part = (value: string | undefined) => (value === undefined ? '-' : `${value.length}:${value}`);

/**
 * The server's check of a patient typed into a form (patients.create and update, signUps.convert),
 * whatever the client checked: SPEC §5's general rules in the forms' words, per field, with SPEC §8's
 * ids (core `FormCheck`, as sign-ups are checked): 'Please enter a value', 'Invalid date', 'Date must be
 * in the past', 'Enter a valid email address', 'Invalid UK mobile number', 'Invalid UK postcode',
 * 'Invalid NHS/CHI number' (the display id, when the business's displayIdField says validateNhsNumber),
 * 'Value must be at most N characters long'. A blank display id is allowed when the setting does not
 * require one (the caller gives the patient a generated one). The import's rows go through
 * {@link checkPatient} instead, with SPEC §5's per-row messages.
 */
export function checkPatientForm(patient: ImportedPatient, field: DisplayIdField, today: string): PatientCheck {
  const check = new FormCheck('patient.', today);
  const id = { required: field.required };
  const displayId = field.validateNhsNumber
    ? check.nhsNumber('displayId', patient.displayId, id)
    : check.text('displayId', patient.displayId, { ...id, max: MAX_ID });
  const name = patient.name ?? {};
  const full = check.text('name.full', name.full, { max: MAX_TEXT });
  const given = check.text('name.given', name.given, { max: MAX_TEXT });
  const family = check.text('name.family', name.family, { max: MAX_TEXT });
  if (!NAME_KEYS.some((key) => name[key]?.trim())) check.fail('name', 'REQUIRED');
  const dateOfBirth = check.dateOfBirth('dateOfBirth', patient.dateOfBirth);
  const email = check.email('email', patient.email);
  const mobileNumber = check.ukMobile('mobileNumber', patient.mobileNumber, { required: true });
  const address = check.address('address', patient.address, { max: MAX_TEXT });
  if (check.errors.length > 0 || mobileNumber === null) return { ok: false, fields: check.errors };
  return {
    ok: true,
    values: {
      displayId: displayId ?? '',
      givenName: given ?? '',
      familyName: family ?? '',
      fullName: full ?? [given, family].filter(Boolean).join(' '),
      dateOfBirth,
      email,
      mobileNumber,
      ...address,
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
