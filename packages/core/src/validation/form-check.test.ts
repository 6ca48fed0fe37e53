import { describe, expect, it } from 'bun:test';
import { FormCheck } from './form-check.ts';

describe('checking a form field by field', () => {
  it('normalises good values and turns blanks into null, with no errors', () => {
    const check = new FormCheck('patient.', '2026-11-02');
    expect(check.text('name', '  Ada ', { max: 10, required: true })).toBe('Ada');
    expect(check.text('line2', '  ', { max: 10 })).toBeNull();
    expect(check.dateOfBirth('dateOfBirth', '2026-11-02')).toBe('2026-11-02');
    expect(check.email('email', ' ada@example.com ')).toBe('ada@example.com');
    expect(check.ukMobile('mobileNumber', '07700 900123', { required: true })).toBe('+447700900123');
    expect(check.ukPostcode('postcode', 'sw1a1aa')).toBe('SW1A 1AA');
    expect(check.nhsNumber('displayId', '943-476-5919')).toBe('9434765919');
    expect(check.errors).toEqual([]);
  });

  it("records each refused field under its path, in SPEC §5's form words", () => {
    const check = new FormCheck('signUp.', '2026-11-02');
    check.text('firstName', ' ', { max: 10, required: true });
    check.text('lastName', 'x'.repeat(11), { max: 10 });
    check.dateOfBirth('dateOfBirth', '02-11-2026');
    check.dateOfBirth('other', '2026-11-03');
    check.email('email', 'ada@');
    check.ukMobile('mobileNumber', '7700900123');
    check.ukMobile('alternative', '', { required: true });
    check.ukPostcode('address.postcode', 'ZZ');
    check.nhsNumber('displayId', '9434765918');
    check.nhsNumber('grouped', '94347 65919');
    expect(check.errors).toEqual([
      { path: 'signUp.firstName', id: 'REQUIRED', message: 'Please enter a value' },
      { path: 'signUp.lastName', id: 'INVALID_LENGTH', message: 'Value must be at most 10 characters long' },
      { path: 'signUp.dateOfBirth', id: 'INVALID_DATE', message: 'Invalid date' },
      { path: 'signUp.other', id: 'DATE_NOT_IN_PAST', message: 'Date must be in the past' },
      { path: 'signUp.email', id: 'EXPECTED_EMAIL', message: 'Enter a valid email address' },
      { path: 'signUp.mobileNumber', id: 'INVALID_UK_MOBILE', message: 'Invalid UK mobile number' },
      { path: 'signUp.alternative', id: 'REQUIRED', message: 'Please enter a value' },
      { path: 'signUp.address.postcode', id: 'INVALID_UK_POSTCODE', message: 'Invalid UK postcode' },
      { path: 'signUp.displayId', id: 'INVALID_NHS_NUMBER', message: 'Invalid NHS/CHI number' },
      { path: 'signUp.grouped', id: 'INVALID_NHS_NUMBER', message: 'Invalid NHS/CHI number' },
    ]);
    expect(check.summary).toContain('Please enter a value; Value must be at most 10 characters long');
  });

  it('checks an address as the five columns it is kept in, each line under its own path', () => {
    const check = new FormCheck('patient.', '2026-11-02');
    expect(
      check.address('address', { line1: ' 1 High St ', line3: 'x'.repeat(11), postcode: 'sw1a1aa' }, { max: 10 }),
    ).toEqual({
      addressLine1: '1 High St',
      addressLine2: null,
      addressLine3: null,
      postTown: null,
      postcode: 'SW1A 1AA',
    });
    expect(check.address('address', null, { max: 20 })).toEqual({
      addressLine1: null,
      addressLine2: null,
      addressLine3: null,
      postTown: null,
      postcode: null,
    });
    expect(check.errors).toEqual([
      { path: 'patient.address.line3', id: 'INVALID_LENGTH', message: 'Value must be at most 10 characters long' },
    ]);
  });
});
