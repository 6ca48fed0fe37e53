import { describe, expect, it } from 'bun:test';
import { type } from 'arktype';
import { UkMobile } from '../contact/uk-mobile.ts';
import { fieldErrorsOf } from './field-errors.ts';
import { Email } from './general.ts';
import { isArkErrors } from './rule.ts';
import { uniqueItems } from './unique-items.ts';

const errorsOf = (r: unknown) => (isArkErrors(r) ? fieldErrorsOf(r) : []);

describe('uniqueItems', () => {
  it('normalises every item', () => {
    expect(uniqueItems(UkMobile)(['07700 900123', '+447700900124'])).toEqual(['+447700900123', '+447700900124']);
  });

  it('refuses a number written two ways, at the index of the repeat', () => {
    const Form = type({ keyholdersMobileNumbers: uniqueItems(UkMobile) });
    expect(errorsOf(Form({ keyholdersMobileNumbers: ['07700 900123', '+447700900123'] }))).toEqual([
      {
        path: 'keyholdersMobileNumbers.1',
        id: 'DUPLICATE_ITEM',
        message: 'Item with value +447700900123 already exists',
      },
    ]);
  });

  it('treats emails differing only in case as the same', () => {
    expect(errorsOf(uniqueItems(Email)(['a@b.co', 'A@B.co']))[0]?.message).toBe(
      'Item with value A@B.co already exists',
    );
  });

  it('reports an invalid item with its own message', () => {
    expect(errorsOf(uniqueItems(Email)(['a@b.co', 'nope']))).toEqual([
      { path: '1', id: 'INVALID_EMAIL', message: 'Invalid email' },
    ]);
  });

  it('accepts an empty list', () => {
    expect(uniqueItems(Email)([])).toEqual([]);
  });
});

describe('fieldErrorsOf', () => {
  it('reports a missing key as required, in the SPEC wording', () => {
    const Form = type({ barcode: 'string', 'note?': 'string' });
    expect(errorsOf(Form({}))).toEqual([{ path: 'barcode', id: 'REQUIRED', message: 'Field is required' }]);
  });

  it('gives plain arktype failures a generic id and keeps their message', () => {
    const Form = type({ name: 'string >= 3' });
    expect(errorsOf(Form({ name: 'ab' }))).toEqual([
      { path: 'name', id: 'INVALID_LENGTH', message: 'name must be at least length 3 (was 2)' },
    ]);
  });

  it('words a plain maximum length as SPEC §5 does, and names an undeclared key', () => {
    const Form = type({ name: 'string <= 3' }).onDeepUndeclaredKey('reject');
    expect(errorsOf(Form({ name: 'abcd', colour: 'red' }))).toEqual([
      { path: 'name', id: 'INVALID_LENGTH', message: 'Value must be at most 3 characters long' },
      { path: 'colour', id: 'UNKNOWN_FIELD', message: 'Unknown field colour' },
    ]);
  });
});
