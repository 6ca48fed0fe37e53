import { fail, textInput } from '../validation/rule.ts';

const PLUS = 43;
const isDigit = (c: number) => c >= 48 && c <= 57;
// What people type inside a number: spaces, dots, hyphens, brackets.
const isMobileSeparator = (c: number) =>
  c === 32 || c === 46 || c === 45 || c === 40 || c === 41 || (c >= 9 && c <= 13);

/**
 * Normalises a UK mobile number to E.164 ('+447700900123') or returns undefined.
 * Strips spaces, dots, hyphens and brackets; a leading 0 becomes +44; the '+440' people write
 * ('+44 (0)7700…') loses its 0; '447…' gains its '+'. The result must be +447 and 9 more digits.
 * With `missingZero`, the bare '7700900123' a spreadsheet leaves of '07700 900123' is accepted too.
 * One pass over the characters: a patient import runs this on every row.
 */
export function normaliseUkMobile(value: string, options: { missingZero?: boolean } = {}): string | undefined {
  let plus = false;
  let digits = 0;
  let start = -1; // index in `value` of the first digit that belongs to the national number
  // The digits before it, at most '440', as their count and value ('' is 0/0, '0' is 1/0, '44' is 2/44).
  let prefixLength = 0;
  let prefix = 0;
  let separated = false; // a separator after `start`, so the national number is not one slice
  const n = value.length;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (isDigit(c)) {
      if (start < 0) {
        // Collect a possible 44 / 440 / 0 prefix until the mobile's 7 shows up.
        if (c === 55 /* 7 */ && isPrefix(prefixLength, prefix)) start = i;
        else if (prefixLength < 3) {
          prefix = prefix * 10 + (c - 48);
          prefixLength++;
        } else return undefined;
      }
      digits++;
    } else if (c === PLUS && digits === 0 && !plus) {
      plus = true;
    } else if (isMobileSeparator(c)) {
      if (start >= 0) separated = true;
    } else {
      return undefined;
    }
  }
  if (start < 0) return undefined;
  const valid =
    (prefixLength === 1 && prefix === 0 && !plus) ||
    (prefixLength === 2 && prefix === 44) ||
    (prefixLength === 3 && prefix === 440 && plus) ||
    (prefixLength === 0 && !plus && options.missingZero === true);
  if (!valid || digits - prefixLength !== 10) return undefined;
  if (!separated) return `+44${value.slice(start)}`;
  let national = '';
  for (let i = start; i < n; i++) {
    const c = value.charCodeAt(i);
    if (isDigit(c)) national += value[i];
  }
  return `+44${national}`;
}

/** '', '0', '44' or '440': what may come before a mobile's national 7. */
const isPrefix = (length: number, value: number) =>
  length === 0 || (length === 1 && value === 0) || (length === 2 && value === 44) || (length === 3 && value === 440);

/**
 * SPEC §5 UK mobile, called on raw input: `UkMobile('07700 900123')` → '+447700900123', or errors
 * whose summary is 'Invalid UK mobile number' (INVALID_UK_MOBILE).
 */
export const UkMobile = textInput('INVALID_UK_MOBILE', undefined, 32).pipe(
  (s, ctx) => normaliseUkMobile(s) ?? fail(ctx, 'INVALID_UK_MOBILE'),
);
export type UkMobile = typeof UkMobile.infer;
