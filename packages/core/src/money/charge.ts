import { type } from 'arktype';
import { fail, textInput } from '../validation/rule.ts';

/** Money as whole pence, never negative (SPEC §3: money in pence). */
export const Pence = type('number.integer >= 0');
export type Pence = typeof Pence.infer;

/** The most a charge may be: £10,000 (no medicine collected from a locker costs more; a typo does). */
export const maxChargePence = 1_000_000;

const chargePattern = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Reads an amount typed in pounds ('9.80', '9.8', '9') as pence, or undefined. Digits with at most
 * two decimals, greater than zero and at most £10,000; blanks around are forgiven (pasted values), nothing else is:
 * no '£', no '1e3', no '-1', no '.5'. Computed on the digits, so there is no float rounding.
 */
export function parseCharge(value: string): number | undefined {
  const m = chargePattern.exec(value.trim());
  if (!m) return undefined;
  const pounds = Number(m[1]);
  const pence = Number((m[2] ?? '').padEnd(2, '0'));
  const total = pounds * 100 + pence;
  return total > 0 && total <= maxChargePence ? total : undefined;
}

/**
 * SPEC §5 charge, called on raw input: `Charge('9.80')` → 980 (pence), or errors whose summary is
 * 'Please enter a valid amount, e.g. “9.99”' (INVALID_CHARGE). Over 32 characters: INVALID_LENGTH.
 */
export const Charge = textInput('INVALID_CHARGE', undefined, 32).pipe(
  (s, ctx) => parseCharge(s) ?? fail(ctx, 'INVALID_CHARGE'),
);
export type Charge = typeof Charge.infer;
