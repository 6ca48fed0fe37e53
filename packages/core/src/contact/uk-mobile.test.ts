import { describe, expect, it } from 'bun:test';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import { normaliseUkMobile, UkMobile } from './uk-mobile.ts';

const summaryOf = (r: unknown) => (isArkErrors(r) ? r.summary : undefined);

describe('UkMobile', () => {
  it('turns a leading 0 into +44', () => {
    expect(UkMobile('07700 900123')).toBe('+447700900123');
    expect(UkMobile('07700900123')).toBe('+447700900123');
  });

  it('strips spaces, dots, hyphens and brackets', () => {
    expect(UkMobile('07700.900.123')).toBe('+447700900123');
    expect(UkMobile('07700-900-123')).toBe('+447700900123');
    expect(UkMobile('(07700) 900 123')).toBe('+447700900123');
    expect(UkMobile(' +44 7700 900123 ')).toBe('+447700900123');
  });

  it('drops the 0 of +44 (0)7… and +440…', () => {
    expect(UkMobile('+44 (0)7700 900123')).toBe('+447700900123');
    expect(UkMobile('+4407700900123')).toBe('+447700900123');
  });

  it('adds the + to 447…', () => {
    expect(UkMobile('447700900123')).toBe('+447700900123');
  });

  it('refuses landlines, short and long numbers with the SPEC message', () => {
    for (const s of ['02079460000', '+442079460000', '0770090012', '077009001234', '+4477009001234', '']) {
      expect(summaryOf(UkMobile(s))).toBe('Invalid UK mobile number');
    }
  });

  it('refuses foreign numbers, letters and double prefixes', () => {
    for (const s of ['+33612345678', '0770O900123', '+44+447700900123', '00447700900123', '7700900123']) {
      expect(normaliseUkMobile(s)).toBeUndefined();
    }
  });

  it('refuses non-text input with its validation id', () => {
    const r = UkMobile(7700900123);
    expect(isArkErrors(r) && fieldErrorsOf(r)).toEqual([
      { path: '', id: 'INVALID_UK_MOBILE', message: 'Invalid UK mobile number' },
    ]);
  });

  it('accepts the separators people type and nothing else', () => {
    expect(UkMobile('(07700) 900-123')).toBe('+447700900123');
    expect(UkMobile('07700.900.123')).toBe('+447700900123');
    expect(UkMobile('+44 7700 900123')).toBe('+447700900123');
    for (const bad of [
      '07700 900123 ext 2',
      '0044 7700 900123',
      '+0 7700 900123',
      '4407700900123',
      '07700+900123',
      '7700900123',
    ]) {
      expect(UkMobile(bad)).toSatisfy(isArkErrors);
    }
  });

  it('takes the bare 10 digits a spreadsheet leaves only when asked to', () => {
    expect(normaliseUkMobile('7700900123')).toBeUndefined();
    expect(normaliseUkMobile('7700 900123', { missingZero: true })).toBe('+447700900123');
    expect(normaliseUkMobile('770090012', { missingZero: true })).toBeUndefined();
  });
});
