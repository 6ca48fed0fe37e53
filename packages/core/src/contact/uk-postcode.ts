import { fail, textInput } from '../validation/rule.ts';

// Outward code (area letters, district digits, optional letter), one space, inward code (digit and
// two letters that exclude C I K M O V), anchored at both ends so nothing can ride along after a
// valid postcode. GIR 0AA (Girobank) is the one historic exception still in use.
const postcodePattern =
  /^(?:GIR 0AA|[A-PR-UWYZ](?:\d[\dA-HJKPSTUW]?|[A-HK-Y]\d[\dABEHMNPRVWXY]?) \d[ABD-HJLNP-UW-Z]{2})$/;

/**
 * Normalises a UK postcode to its printed form ('SW1A 1AA') or returns undefined. Blanks around and
 * between are tidied and letters upper-cased first, and a missing space is put back ('sw1a1aa').
 */
export function normaliseUkPostcode(value: string): string | undefined {
  // Already in its printed form, as most stored and imported postcodes are.
  if (value.length <= 8 && postcodePattern.test(value)) return value;
  const compact = value.trim().toUpperCase().replace(/\s+/g, '');
  if (compact.length < 5 || compact.length > 7) return undefined;
  const spaced = `${compact.slice(0, -3)} ${compact.slice(-3)}`;
  return postcodePattern.test(spaced) ? spaced : undefined;
}

/**
 * SPEC §5 UK postcode, called on raw input: `UkPostcode(' sw1a  1aa ')` → 'SW1A 1AA', or errors whose
 * summary is 'Invalid UK postcode' (INVALID_UK_POSTCODE).
 */
export const UkPostcode = textInput('INVALID_UK_POSTCODE', undefined, 32).pipe(
  (s, ctx) => normaliseUkPostcode(s) ?? fail(ctx, 'INVALID_UK_POSTCODE'),
);
export type UkPostcode = typeof UkPostcode.infer;
