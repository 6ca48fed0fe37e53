import { describe, expect, it } from 'bun:test';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import { normaliseUkPostcode, UkPostcode } from './uk-postcode.ts';

const summaryOf = (r: unknown) => (isArkErrors(r) ? r.summary : undefined);

describe('UkPostcode', () => {
  it('trims, collapses spaces and upper-cases', () => {
    expect(UkPostcode(' sw1a  1aa ')).toBe('SW1A 1AA');
    expect(UkPostcode('sw1a\t1aa')).toBe('SW1A 1AA');
  });

  it('puts back a missing space', () => {
    expect(UkPostcode('SW1A1AA')).toBe('SW1A 1AA');
    expect(UkPostcode('m11ae')).toBe('M1 1AE');
  });

  it('accepts every outward shape', () => {
    for (const s of ['M1 1AE', 'B33 8TH', 'CR2 6XH', 'DN55 1PT', 'W1A 0AX', 'EC1A 1BB']) expect(UkPostcode(s)).toBe(s);
  });

  it('accepts GIR 0AA', () => {
    expect(UkPostcode('GIR 0AA')).toBe('GIR 0AA');
    expect(UkPostcode('gir0aa')).toBe('GIR 0AA');
  });

  it('refuses anything riding after a valid postcode', () => {
    expect(summaryOf(UkPostcode('SW1A 1AA; DROP TABLE x'))).toBe('Invalid UK postcode');
    expect(normaliseUkPostcode('SW1A 1AA X')).toBeUndefined();
    expect(normaliseUkPostcode('XSW1A 1AA')).toBeUndefined();
    expect(normaliseUkPostcode('SW1A 1AA\n')).toBe('SW1A 1AA');
  });

  it('refuses letters where digits belong and the inward letters never used', () => {
    for (const s of ['SW1A AAA', 'QW1A 1AA', '1W1A 1AA', 'SW1A 1CA', 'SW1A 1AI', 'ZZ', '', '12345']) {
      expect(summaryOf(UkPostcode(s))).toBe('Invalid UK postcode');
    }
  });

  it('refuses non-text input with its validation id', () => {
    const r = UkPostcode(12345);
    expect(isArkErrors(r) && fieldErrorsOf(r)).toEqual([
      { path: '', id: 'INVALID_UK_POSTCODE', message: 'Invalid UK postcode' },
    ]);
  });
});
