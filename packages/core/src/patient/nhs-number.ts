import { isBlankCode } from '../validation/general.ts';
import { fail, textInput } from '../validation/rule.ts';

/**
 * The mod-11 check of NHS, CHI and H&C numbers: the first nine digits weighted 10 down to 2, summed;
 * 11 minus the remainder is the check digit, where 11 means 0 and 10 means the number can never be
 * issued (so it is invalid, not "check digit 10").
 */
export function nhsCheckDigit(firstNine: string): number | undefined {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(firstNine[i]) * (10 - i);
  return checkDigitOf(sum);
}

const checkDigitOf = (weightedSum: number): number | undefined => {
  const result = 11 - (weightedSum % 11);
  if (result === 11) return 0;
  return result === 10 ? undefined : result;
};

/**
 * Where the number inside `value` starts and ends, blanks around it left out, when it is written
 * one of the accepted ways: 10 digits ('9434765919'), or grouped 3-3-4 with single spaces
 * ('943 476 5919') or single hyphens ('943-476-5919'), the same separator both times. Any other
 * grouping ('94347 65919', '01 2345 6789', '943 476-5919', '943  476 5919') is refused: it is more
 * likely a different number or a typing slip than an NHS number.
 */
function numberSpan(value: string): [start: number, end: number] | undefined {
  let start = 0;
  let end = value.length;
  while (start < end && isBlankCode(value.charCodeAt(start))) start++;
  while (end > start && isBlankCode(value.charCodeAt(end - 1))) end--;
  const length = end - start;
  if (length !== 10 && length !== 12) return undefined;
  const separator = length === 12 ? value.charCodeAt(start + 3) : -1;
  if (length === 12 && ((separator !== SPACE && separator !== HYPHEN) || value.charCodeAt(start + 7) !== separator)) {
    return undefined;
  }
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i);
    if (length === 12 && (i === start + 3 || i === start + 7)) continue;
    if (c < 48 || c > 57) return undefined;
  }
  return [start, end];
}

const SPACE = 32;
const HYPHEN = 45;

/**
 * The 10 digits of an NHS/CHI number written one of the accepted ways (see {@link numberSpan}) with a
 * right check digit, or undefined.
 */
export function nhsNumberDigits(value: string): string | undefined {
  const span = numberSpan(value);
  if (!span) return undefined;
  const [start, end] = span;
  const digits = end - start === 10 ? value.slice(start, end) : value.slice(start, end).replace(/[ -]/g, '');
  return hasRightCheckDigit(digits) ? digits : undefined;
}

/** True when 10 digits end in the mod-11 check digit of the first nine. */
function hasRightCheckDigit(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (digits.charCodeAt(i) - 48) * (10 - i);
  return checkDigitOf(sum) === digits.charCodeAt(9) - 48;
}

/**
 * True when `value` is an NHS/CHI number: 10 digits, or 3-3-4 groups separated by single spaces or
 * single hyphens (consistently), blanks around allowed, with a right check digit. One pass over the
 * characters with no allocation for the plain 10 digits: a patient import runs it on every row.
 */
export function isNhsNumber(value: string): boolean {
  const span = numberSpan(value);
  if (!span) return false;
  const [start, end] = span;
  let sum = 0;
  let count = 0;
  let last = -1;
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) continue;
    if (count < 9) sum += (c - 48) * (10 - count);
    else last = c - 48;
    count++;
  }
  return checkDigitOf(sum) === last;
}

/**
 * SPEC §5 NHS/CHI number, called on raw input: `NhsNumber('943 476 5919')` → '9434765919', or errors
 * whose summary is 'Invalid NHS/CHI number' (INVALID_NHS_NUMBER). The output stays a string so
 * leading zeros of CHI numbers survive.
 */
export const NhsNumber = textInput('INVALID_NHS_NUMBER', undefined, 32).pipe(
  (s, ctx) => nhsNumberDigits(s) ?? fail(ctx, 'INVALID_NHS_NUMBER'),
);
export type NhsNumber = typeof NhsNumber.infer;

/** Groups a 10-digit number 3-3-4 for display ('943 476 5919'); other input is returned unchanged. */
export function formatNhsNumber(value: string): string {
  const span = numberSpan(value);
  if (!span) return value;
  const digits = value.slice(span[0], span[1]).replace(/[ -]/g, '');
  return `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
}

/** Which health service issued a number. */
export type NhsNumberIssuer = 'scotland' | 'northern-ireland' | 'england-wales-iom' | 'test' | 'unknown';

/**
 * Classes a valid number by its issuer. Ranges are on the first nine digits, from the published
 * allocation (NHS Digital, as summarised in Wikipedia "NHS number", section "Format, number ranges,
 * and check characters", https://en.wikipedia.org/wiki/NHS_number):
 * - 010 101 0000 – 311 299 9999: Scotland's CHI numbers, whose first six digits are the holder's date
 *   of birth DDMMYY, so a number in that span is Scottish only if it starts with a real date;
 * - 320 000 001 – 399 999 999: Northern Ireland's H&C numbers;
 * - 300 000 000 – 320 000 000 ("current numbers in England also include 3xx xxx xxxx"),
 *   400 000 000 – 499 999 999 and 600 000 000 – 799 999 999: England, Wales and the Isle of Man;
 * - 999 000 0000 – 999 999 9999: reserved for tests and demos, never issued to a patient.
 * Anything else is 'unknown' (e.g. 5xx, never allocated). Returns undefined for an invalid number.
 */
export function nhsNumberIssuer(value: string): NhsNumberIssuer | undefined {
  const digits = nhsNumberDigits(value);
  if (digits === undefined) return undefined;
  const nine = Number(digits.slice(0, 9));
  if (nine >= 999_000_000) return 'test';
  if (nine >= 10_101_000 && nine <= 311_299_999 && isChiDate(digits.slice(0, 6))) return 'scotland';
  if (nine >= 320_000_001 && nine <= 399_999_999) return 'northern-ireland';
  if (
    (nine >= 300_000_000 && nine <= 320_000_000) ||
    (nine >= 400_000_000 && nine <= 499_999_999) ||
    (nine >= 600_000_000 && nine <= 799_999_999)
  ) {
    return 'england-wales-iom';
  }
  return 'unknown';
}

/** DDMMYY with a real day for the month; 29/02 counts when some century makes YY a leap year. */
function isChiDate(ddmmyy: string): boolean {
  const day = Number(ddmmyy.slice(0, 2));
  const month = Number(ddmmyy.slice(2, 4));
  const yy = Number(ddmmyy.slice(4, 6));
  if (month < 1 || month > 12 || day < 1) return false;
  // 2000 + yy is a leap year exactly when yy % 4 === 0 (2000 itself is one), which covers 1900s too.
  const daysInMonth = new Date(Date.UTC(2000 + yy, month, 0)).getUTCDate();
  return day <= daysInMonth;
}
