import { limits } from '../limits.ts';
import { fail, textInput } from '../validation/rule.ts';

/**
 * Normalises a UK mobile number to E.164 ('+447700900123') or returns undefined.
 * Strips spaces, dots, hyphens and brackets; a leading 0 becomes +44; the '+440' people write
 * ('+44 (0)7700…') loses its 0; '447…' gains its '+'. The result must be +447 and 9 more digits.
 */
export function normaliseUkMobile(value: string): string | undefined {
  let s = value.trim().replace(/[\s.\-()]/g, '');
  const prefix = limits.mobileCountryPrefix;
  if (s.startsWith(`${prefix}0`)) s = prefix + s.slice(4);
  else if (s.startsWith('0')) s = prefix + s.slice(1);
  else if (s.startsWith('447')) s = `+${s}`;
  return /^\+447\d{9}$/.test(s) ? s : undefined;
}

/**
 * SPEC §5 UK mobile, called on raw input: `UkMobile('07700 900123')` → '+447700900123', or errors
 * whose summary is 'Invalid UK mobile number' (INVALID_UK_MOBILE).
 */
export const UkMobile = textInput('INVALID_UK_MOBILE').pipe(
  (s, ctx) => normaliseUkMobile(s) ?? fail(ctx, 'INVALID_UK_MOBILE'),
);
export type UkMobile = typeof UkMobile.infer;
