/**
 * The one catalogue of validation ids and messages (SPEC §5 and §8). The api returns the id and
 * message per field; the console shows the message beside the field. Messages are the SPEC's exact
 * words: never reword them here without changing the SPEC.
 *
 * Ids in SPEC §8's list keep their spelling (including the two lower-case upload ids); the ones the
 * SPEC gives a message for but no id (REQUIRED, INVALID_SENDER_ID, …) are ours.
 */
export const validationMessages = {
  INVALID_BOOLEAN: 'Invalid boolean',
  INVALID_CHARGE: 'Please enter a valid amount, e.g. “9.99”',
  INVALID_DATE: 'Invalid date',
  /** The sign-in forms' wording of INVALID_DATE (SPEC §5). */
  EXPECTED_DATE: 'Expected a valid date',
  DATE_NOT_IN_PAST: 'Date must be in the past',
  INVALID_LENGTH: 'Value has an invalid length',
  INVALID_FORMAT: 'Value is not correctly formatted',
  INVALID_EMAIL: 'Invalid email',
  /** The forms' wording of INVALID_EMAIL (SPEC §5 names this code). */
  EXPECTED_EMAIL: 'Enter a valid email address',
  INVALID_NUMBER: 'Invalid number',
  INVALID_INTEGER: 'Invalid integer',
  INVALID_RANGE: 'Invalid range',
  INVALID_MINIMUM_INTEGER: 'Invalid minimum integer',
  INVALID_POSITIVE_INTEGER: 'Please enter a positive whole number',
  INVALID_NHS_NUMBER: 'Invalid NHS/CHI number',
  INVALID_UK_MOBILE: 'Invalid UK mobile number',
  INVALID_UK_POSTCODE: 'Invalid UK postcode',
  INVALID_SENDER_ID:
    'The Sender ID must be 1-11 alpha-numeric or hyphen (-) characters. It has to start and end with an alphanumeric character',
  INVALID_EXEMPTION_CODE: 'Invalid exemption code',
  REQUIRED: 'Please enter a value',
  /** The other SPEC wording of REQUIRED, used where a field is required but not typed into. */
  FIELD_REQUIRED: 'Field is required',
  PASSWORD_TOO_SHORT: 'Please enter at least 12 characters',
  PASSWORDS_DO_NOT_MATCH: 'Passwords do not match',
  DUPLICATE_ITEM: 'Item already exists',
  DUPLICATE_MACHINE_NAME: 'A machine with that name already exists for this business',
  MISSING_PLACEHOLDER: 'Missing placeholder',
  UNKNOWN_PLACEHOLDER: 'Unknown placeholder',
  /** A key the method does not declare, or one the caller may not set here (never silently dropped). */
  UNKNOWN_FIELD: 'This field is not accepted here',
  'unacceptable-extension': 'Only the following extensions are accepted: .jpg, .jpeg, .png',
  'unacceptable-size': 'Only files under 256 KB are accepted',
} as const;

export type ValidationId = keyof typeof validationMessages;

/** A rule's failure outside arktype; the same shape as the api's `FieldError`, with a known id. */
export type ValidationError = { path: string; id: ValidationId; message: string };

/**
 * Messages that carry values. Each returns the exact SPEC wording with the value put in; the
 * constant in {@link validationMessages} is the wording used when no value is known.
 */
export const validationMessage = {
  /** `path` is the dotted path of the key: 'Unknown field settings.colour'. */
  unknownField: (path: string) => `Unknown field ${path}`,
  minLength: (n: number) => `Value must be at least ${n} characters long`,
  maxLength: (n: number) => `Value must be at most ${n} characters long`,
  /** A list over its maximum: SPEC §5's length words, for items rather than characters. */
  maxItems: (n: number) => `Value must have at most ${n} items`,
  range: (min: number, max: number) => `Invalid range, value must be an integer between ${min} and ${max}`,
  minimumInteger: (n: number) => `Invalid minimum integer, value cannot be smaller than ${n}`,
  duplicateItem: (value: string) => `Item with value ${value} already exists`,
  /** `placeholder` is the bare name: `missingPlaceholder('pin')` → 'Missing ${pin} placeholder'. */
  missingPlaceholder: (placeholder: string) => `Missing \${${placeholder}} placeholder`,
  unknownPlaceholder: (placeholder: string) => `Unknown placeholder \${${placeholder}}`,
  unacceptableExtension: (extensions: readonly string[]) =>
    `Only the following extensions are accepted: ${extensions.join(', ')}`,
  /** `size` is already formatted, see `formatFileSize`. */
  unacceptableSize: (size: string) => `Only files under 256 KB are accepted, your file has ${size}.`,
} as const;
