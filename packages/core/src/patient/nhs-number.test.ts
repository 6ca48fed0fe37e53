import { describe, expect, it } from 'bun:test';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import {
  formatNhsNumber,
  isNhsNumber,
  NhsNumber,
  nhsCheckDigit,
  nhsNumberDigits,
  nhsNumberIssuer,
} from './nhs-number.ts';

const summaryOf = (r: unknown) => (isArkErrors(r) ? r.summary : undefined);

describe('NhsNumber', () => {
  it('accepts the published example and returns its digits', () => {
    expect(NhsNumber('9434765919')).toBe('9434765919');
  });

  it('accepts the number grouped 3-3-4 by single spaces or single hyphens, blanks around it ignored', () => {
    expect(NhsNumber('943 476 5919')).toBe('9434765919');
    expect(NhsNumber('943-476-5919')).toBe('9434765919');
    expect(NhsNumber(' 943 476 5919 ')).toBe('9434765919');
    expect(NhsNumber('\t9434765919\n')).toBe('9434765919');
  });

  it('refuses any other grouping of the same ten digits', () => {
    for (const s of [
      '94347 65919',
      '9 4 3 4 7 6 5 9 1 9',
      '943 476-5919',
      '943-476 5919',
      '943  476 5919',
      '943--476--5919',
      '9434 765 919',
      '943 4765919',
      '943\t476\t5919',
      '943\u00a0476\u00a05919',
      '-9434765919',
      '9434765919-',
    ]) {
      expect(isNhsNumber(s)).toBe(false);
      expect(summaryOf(NhsNumber(s))).toBe('Invalid NHS/CHI number');
    }
    const chi = `012345678${nhsCheckDigit('012345678')}`;
    expect(isNhsNumber(chi)).toBe(true);
    expect(isNhsNumber(`${chi.slice(0, 2)} ${chi.slice(2, 6)} ${chi.slice(6)}`)).toBe(false);
  });

  it('gives the digits of an accepted number, and nothing for a refused one', () => {
    expect(nhsNumberDigits('943-476-5919')).toBe('9434765919');
    expect(nhsNumberDigits('94347 65919')).toBeUndefined();
    expect(nhsNumberDigits('943 476 5918')).toBeUndefined();
  });

  it('refuses a wrong check digit with the SPEC message', () => {
    expect(summaryOf(NhsNumber('9434765918'))).toBe('Invalid NHS/CHI number');
  });

  it('refuses numbers whose mod-11 result is 10, which can never be issued', () => {
    // 1,2,3,4,5,6,7,8,9 weighted 10..2 sum to 210; 210 % 11 = 1; 11 - 1 = 10.
    expect(nhsCheckDigit('123456789')).toBeUndefined();
    for (let d = 0; d <= 9; d++) expect(isNhsNumber(`123456789${d}`)).toBe(false);
    expect(summaryOf(NhsNumber('999 000 0000'))).toBe('Invalid NHS/CHI number');
  });

  it('takes a mod-11 result of 11 as check digit 0', () => {
    // 4,0,1,0,2,3,2,1,1 weighted 10..2 sum to 99, a multiple of 11: 11 - 0 = 11 → 0.
    expect(nhsCheckDigit('401023211')).toBe(0);
    expect(NhsNumber('4010232110')).toBe('4010232110');
    expect(isNhsNumber('4010232111')).toBe(false);
  });

  it('keeps leading zeros of CHI numbers as a string', () => {
    const chi = `010190001${nhsCheckDigit('010190001')}`;
    expect(NhsNumber(chi)).toBe(chi);
    expect(typeof NhsNumber(chi)).toBe('string');
  });

  it('refuses wrong lengths', () => {
    for (const s of ['', '943476591', '94347659190', '943 476 591'])
      expect(summaryOf(NhsNumber(s))).toBe('Invalid NHS/CHI number');
  });

  it('refuses letters, dots and other non-digits', () => {
    for (const s of ['94347659l9', '943.476.5919', '943_476_5919', '+9434765919', '９４３４７６５９１９']) {
      expect(isNhsNumber(s)).toBe(false);
    }
  });

  it('refuses input that is not text with the same message', () => {
    expect(summaryOf(NhsNumber(9434765919))).toBe('Invalid NHS/CHI number');
    expect(summaryOf(NhsNumber(null))).toBe('Invalid NHS/CHI number');
  });

  it('carries its validation id for the api', () => {
    const r = NhsNumber('123');
    expect(isArkErrors(r) && fieldErrorsOf(r)).toEqual([
      { path: '', id: 'INVALID_NHS_NUMBER', message: 'Invalid NHS/CHI number' },
    ]);
  });
});

describe('formatNhsNumber', () => {
  it('groups 3-3-4', () => {
    expect(formatNhsNumber('9434765919')).toBe('943 476 5919');
    expect(formatNhsNumber('943-476-5919')).toBe('943 476 5919');
  });

  it('leaves what is not 10 digits unchanged', () => {
    expect(formatNhsNumber('12345')).toBe('12345');
  });
});

describe('nhsNumberIssuer', () => {
  /** The first issuable number at or after `nine` (some prefixes have no valid check digit). */
  const withCheck = (nine: string) => {
    for (let n = Number(nine); ; n++) {
      const prefix = String(n).padStart(9, '0');
      const check = nhsCheckDigit(prefix);
      if (check !== undefined) return `${prefix}${check}`;
    }
  };

  it('classes a number starting with a real DDMMYY date in the CHI span as Scottish', () => {
    expect(nhsNumberIssuer(withCheck('150385123'))).toBe('scotland');
    expect(nhsNumberIssuer(withCheck('290200001'))).toBe('scotland');
  });

  it('does not class an impossible date as Scottish', () => {
    // 31 February, then day 00.
    const a = withCheck('310285124');
    expect(nhsNumberIssuer(a)).not.toBe('scotland');
    expect(nhsNumberIssuer(withCheck('001285124'))).not.toBe('scotland');
  });

  it('classes 320 000 001 to 399 999 999 as Northern Ireland', () => {
    expect(nhsNumberIssuer(withCheck('320000005'))).toBe('northern-ireland');
    expect(nhsNumberIssuer(withCheck('399999991'))).toBe('northern-ireland');
  });

  it('classes 4xx and 6xx-7xx numbers as England, Wales and the Isle of Man', () => {
    expect(nhsNumberIssuer('4010232110')).toBe('england-wales-iom');
    expect(nhsNumberIssuer(withCheck('499999990'))).toBe('england-wales-iom');
    expect(nhsNumberIssuer(withCheck('799999900'))).toBe('england-wales-iom');
    expect(nhsNumberIssuer(withCheck('612345678'))).toBe('england-wales-iom');
  });

  it('classes 999 numbers as the test range and unallocated ones as unknown', () => {
    expect(nhsNumberIssuer(withCheck('999123456'))).toBe('test');
    expect(nhsNumberIssuer(withCheck('512345678'))).toBe('unknown');
    expect(nhsNumberIssuer('9434765919')).toBe('unknown');
  });

  it('answers undefined for an invalid number', () => {
    expect(nhsNumberIssuer('9434765918')).toBeUndefined();
  });
});
