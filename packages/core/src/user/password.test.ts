import { describe, expect, it } from 'bun:test';
import { type } from 'arktype';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import { NewPassword, Password } from './password.ts';

const errorsOf = (r: unknown) => (isArkErrors(r) ? fieldErrorsOf(r) : []);

describe('Password', () => {
  it('accepts 12 characters or more', () => {
    expect(Password('123456789012')).toBe('123456789012');
  });

  it('refuses 11 characters with the SPEC message', () => {
    expect(errorsOf(Password('12345678901'))).toEqual([
      { path: '', id: 'PASSWORD_TOO_SHORT', message: 'Please enter at least 12 characters' },
    ]);
  });
});

describe('NewPassword', () => {
  it('accepts a matching confirmation', () => {
    expect(NewPassword({ password: 'correct horse', confirmation: 'correct horse' })).toEqual({
      password: 'correct horse',
      confirmation: 'correct horse',
    });
  });

  it('reports a mismatch on the confirmation field', () => {
    expect(errorsOf(NewPassword({ password: 'correct horse', confirmation: 'correct horsE' }))).toEqual([
      { path: 'confirmation', id: 'PASSWORDS_DO_NOT_MATCH', message: 'Passwords do not match' },
    ]);
  });

  it('reports the path under a parent object', () => {
    const Form = type({ reset: NewPassword });
    expect(errorsOf(Form({ reset: { password: 'correct horse', confirmation: 'x' } }))[0]?.path).toBe(
      'reset.confirmation',
    );
  });

  it('reports a short password on the password field', () => {
    expect(errorsOf(NewPassword({ password: 'short', confirmation: 'short' }))).toEqual([
      { path: 'password', id: 'PASSWORD_TOO_SHORT', message: 'Please enter at least 12 characters' },
    ]);
  });
});
