import { type Type, type } from 'arktype';
import { stringLimits, upTo } from '../validation/string-limits.ts';

/**
 * One patient read from a CSV row, ready for patients/batchUpsertPatients (SPEC §3). Fields not
 * mapped or blank are absent. `name` has `full` or `given` + `family`, as the mapping chose.
 */
/**
 * An object that is not an array (an array is an object to JSON Schema and arktype alike): 'must be an
 * object'. A predicate of one argument, so arktype checks a batch with its quick boolean pass and builds
 * messages only for a batch that fails (one taking the context makes every call collect them: 5x slower).
 */
const objectNotArray = <T extends Type<object>>(t: T): T =>
  t.narrow((value: object) => !Array.isArray(value)).configure({ expected: 'an object' } as never) as unknown as T;

/**
 * The longest value any field of an imported patient may have on the wire: the server's own row rules
 * are tighter (names and address lines 200, ids 64, emails 254) and report a row over them as invalid
 * with the rest of the batch imported; only a value over this ceiling refuses the whole request (400).
 */
export const importedCellMaxLength = stringLimits.freeText;

const Cell = upTo(importedCellMaxLength);

export const ImportedPatient = type({
  'address?': objectNotArray(
    type({
      'line1?': Cell,
      'line2?': Cell,
      'line3?': Cell,
      'postTown?': Cell,
      'postcode?': Cell,
    }),
  ),
  /** YYYY-MM-DD whatever the file used. */
  'dateOfBirth?': Cell,
  displayId: Cell,
  'email?': Cell,
  /** +447… */
  mobileNumber: Cell,
  name: objectNotArray(type({ 'family?': Cell, 'given?': Cell, 'full?': Cell })),
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
