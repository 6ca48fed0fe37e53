import { type } from 'arktype';

/**
 * One patient read from a CSV row, ready for patients/batchUpsertPatients (SPEC §3). Fields not
 * mapped or blank are absent. `name` has `full` or `given` + `family`, as the mapping chose.
 */
/** An object that is not an array (an array is an object to JSON Schema and arktype alike). */
const notArray = <T>(value: T, ctx: { mustBe(expected: string): false }) =>
  !Array.isArray(value) || ctx.mustBe('an object');

export const ImportedPatient = type({
  'address?': type({
    'line1?': 'string',
    'line2?': 'string',
    'line3?': 'string',
    'postTown?': 'string',
    'postcode?': 'string',
  }).narrow(notArray),
  /** YYYY-MM-DD whatever the file used. */
  'dateOfBirth?': 'string',
  displayId: 'string',
  'email?': 'string',
  /** +447… */
  mobileNumber: 'string',
  name: type({ 'family?': 'string', 'given?': 'string', 'full?': 'string' }).narrow(notArray),
});
export type ImportedPatient = typeof ImportedPatient.infer;

/** What a CSV column can be mapped to (SPEC §3). */
export const csvFieldKinds = [
  'AddressLine1',
  'AddressLine2',
  'AddressLine3',
  'DateOfBirth',
  'Email',
  'FamilyName',
  'FullName',
  'GivenName',
  'ID',
  'Mobile',
  'NhsNumber',
  'Postcode',
  'PostTown',
] as const;
export const CsvFieldKind = type.enumerated(...csvFieldKinds);
export type CsvFieldKind = typeof CsvFieldKind.infer;

/** Date of birth formats a CSV may use: DD-MM-YYYY, YYYY-MM-DD, DD/MM/YYYY (D/M/YYYY too). */
export const csvDateOfBirthFormats = ['DD-MM-YYYY', 'YYYY-MM-DD', 'DD/MM/YYYY'] as const;
