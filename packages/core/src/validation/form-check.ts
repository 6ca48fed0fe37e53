import { normaliseUkMobile } from '../contact/uk-mobile.ts';
import { normaliseUkPostcode } from '../contact/uk-postcode.ts';
import { nhsNumberDigits } from '../patient/nhs-number.ts';
import { type ValidationError, type ValidationId, validationMessage, validationMessages } from './catalogue.ts';
import { isEmail, isIsoDate } from './general.ts';

type Text = string | null | undefined;

/**
 * SPEC §5's general rules for a form checked field by field on the server (a patient's details, a
 * sign-up), in the forms' words with SPEC §8's ids: 'Please enter a value' (REQUIRED), 'Value must be at
 * most N characters long' (INVALID_LENGTH), 'Invalid date' (INVALID_DATE), 'Date must be in the past'
 * (DATE_NOT_IN_PAST), 'Enter a valid email address' (EXPECTED_EMAIL), 'Invalid UK mobile number'
 * (INVALID_UK_MOBILE), 'Invalid UK postcode' (INVALID_UK_POSTCODE), 'Invalid NHS/CHI number'
 * (INVALID_NHS_NUMBER).
 *
 * Each method checks one field (`address` its five), records a failure under `prefix + path`, and returns
 * the value to store: trimmed and normalised, null when blank or refused. The patient CSV import does not
 * use this: its rows keep SPEC §5's per-row messages ('missing name', …; `import/patient-row.ts`).
 *
 * ```ts
 * const form = new FormCheck('signUp.', today);
 * const email = form.email('email', input.email);
 * if (form.errors.length > 0) throw new AppError('VALIDATION', form.summary, form.errors);
 * ```
 */
export class FormCheck {
  readonly errors: ValidationError[] = [];

  /** `today` is YYYY-MM-DD (Europe/London): a date of birth after it is refused. */
  constructor(
    private readonly prefix: string,
    private readonly today: string,
  ) {}

  /** The messages joined, for the error's own message. */
  get summary(): string {
    return this.errors.map((e) => e.message).join('; ');
  }

  /** Records a failure of the field at `path`; for rules this class does not know. */
  fail(path: string, id: ValidationId, message: string = validationMessages[id]): null {
    this.errors.push({ path: `${this.prefix}${path}`, id, message });
    return null;
  }

  /** Free text, trimmed; blank is null, or 'Please enter a value' when `required`. */
  text(path: string, value: Text, options: { max: number; required?: boolean }): string | null {
    const v = value?.trim() ?? '';
    if (!v) return options.required ? this.fail(path, 'REQUIRED') : null;
    if (v.length > options.max) return this.fail(path, 'INVALID_LENGTH', validationMessage.maxLength(options.max));
    return v;
  }

  /** A date of birth: YYYY-MM-DD, a real day, today at the latest. */
  dateOfBirth(path: string, value: Text): string | null {
    const v = value?.trim();
    if (!v) return null;
    if (!isIsoDate(v)) return this.fail(path, 'INVALID_DATE');
    if (v > this.today) return this.fail(path, 'DATE_NOT_IN_PAST');
    return v;
  }

  email(path: string, value: Text): string | null {
    const v = value?.trim();
    if (!v) return null;
    return isEmail(v) ? v : this.fail(path, 'EXPECTED_EMAIL');
  }

  /** A UK mobile, normalised to +447…; blank is null, or 'Please enter a value' when `required`. */
  ukMobile(path: string, value: Text, options: { required?: boolean } = {}): string | null {
    const v = value?.trim();
    if (!v) return options.required ? this.fail(path, 'REQUIRED') : null;
    return normaliseUkMobile(v) ?? this.fail(path, 'INVALID_UK_MOBILE');
  }

  /** A UK postcode, normalised ('SW1A 1AA'). */
  ukPostcode(path: string, value: Text): string | null {
    const v = value?.trim();
    if (!v) return null;
    return normaliseUkPostcode(v) ?? this.fail(path, 'INVALID_UK_POSTCODE');
  }

  /**
   * A postal address as the five columns a patient or sign-up keeps it in: each line and the post town
   * free text of at most `max` characters, the postcode a UK postcode; each checked at `path.<key>`.
   */
  address(
    path: string,
    value: { line1?: Text; line2?: Text; line3?: Text; postTown?: Text; postcode?: Text } | null | undefined,
    options: { max: number },
  ) {
    const line = (key: 'line1' | 'line2' | 'line3' | 'postTown') => this.text(`${path}.${key}`, value?.[key], options);
    return {
      addressLine1: line('line1'),
      addressLine2: line('line2'),
      addressLine3: line('line3'),
      postTown: line('postTown'),
      postcode: this.ukPostcode(`${path}.postcode`, value?.postcode),
    };
  }

  /** An NHS/CHI number as its 10 digits (3-3-4 spaces or hyphens dropped); blank is null, or required. */
  nhsNumber(path: string, value: Text, options: { required?: boolean } = {}): string | null {
    const v = value?.trim();
    if (!v) return options.required ? this.fail(path, 'REQUIRED') : null;
    return nhsNumberDigits(v) ?? this.fail(path, 'INVALID_NHS_NUMBER');
  }
}
