import { describe, expect, it } from 'bun:test';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import { Charge, Pence, parseCharge } from './charge.ts';

const message = 'Please enter a valid amount, e.g. “9.99”';
const summaryOf = (r: unknown) => (isArkErrors(r) ? r.summary : undefined);

describe('Charge', () => {
  it('reads pounds with 2, 1 or no decimals as pence', () => {
    expect(Charge('9.80')).toBe(980);
    expect(Charge('9.8')).toBe(980);
    expect(Charge('9')).toBe(900);
    expect(Charge('0.01')).toBe(1);
    expect(Charge('1234.56')).toBe(123456);
  });

  it('is exact where float multiplication is not', () => {
    // 1.15 * 100 is 114.99999999999999 in floating point.
    expect(Charge('1.15')).toBe(115);
    expect(Charge('4.35')).toBe(435);
  });

  it('forgives blanks around a pasted amount', () => {
    expect(Charge(' 9.80 ')).toBe(980);
  });

  it('refuses more than two decimals, zero and negatives with the SPEC message', () => {
    for (const s of ['9.999', '0', '0.00', '-1', '-9.80']) expect(summaryOf(Charge(s))).toBe(message);
  });

  it('refuses exponents, currency signs, commas and half-written numbers', () => {
    for (const s of ['1e3', '£9.80', '1,000', '9.', '.5', '', ' ', 'nine', '0x10', 'Infinity']) {
      expect(parseCharge(s)).toBeUndefined();
    }
  });

  it('refuses a number instead of text, with its validation id', () => {
    const r = Charge(9.8);
    expect(isArkErrors(r) && fieldErrorsOf(r)).toEqual([{ path: '', id: 'INVALID_CHARGE', message }]);
  });
});

describe('Pence', () => {
  it('accepts whole non-negative pence only', () => {
    expect(Pence(980)).toBe(980);
    expect(isArkErrors(Pence(9.8))).toBe(true);
    expect(isArkErrors(Pence(-1))).toBe(true);
  });
});
