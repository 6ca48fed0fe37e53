import { describe, expect, it } from 'bun:test';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import type { Method } from './define.ts';
import { contract } from './index.ts';

type Schema = Record<string, unknown>;

/** Every JSON Schema node of `schema` that accepts a string, with its path. */
function stringsOf(schema: unknown, path: string, found: { path: string; schema: Schema }[] = []) {
  if (Array.isArray(schema)) {
    for (const [i, s] of schema.entries()) stringsOf(s, `${path}[${i}]`, found);
  } else if (schema && typeof schema === 'object') {
    const s = schema as Schema;
    if (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'))) found.push({ path, schema: s });
    for (const [key, value] of Object.entries(s)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [name, child] of Object.entries(value)) stringsOf(child, `${path}.${name}`, found);
      } else if (typeof value === 'object') stringsOf(value, `${path}/${key}`, found);
    }
  }
  return found;
}

const methods = Object.entries(contract).flatMap(([area, methods]) =>
  Object.entries(methods as Record<string, Method>).map(([name, method]) => ({ name: `${area}/${name}`, method })),
);

/** The input's JSON Schema, the checks JSON Schema cannot say (narrow, pipe) left out. */
const inputSchemaOf = (method: Method) =>
  method.input.toJsonSchema({ fallback: (ctx: { base: unknown }) => ctx.base } as never) as unknown;

describe('input limits of the contract', () => {
  it('gives every string of every method input a maximum length', () => {
    const unbounded = methods.flatMap(({ name, method }) =>
      stringsOf(inputSchemaOf(method), name)
        .filter(({ schema }) => typeof schema.maxLength !== 'number')
        .map(({ path }) => path),
    );
    expect(unbounded).toEqual([]);
  });

  it('refuses a key no method declares, on every method, naming it', () => {
    const silent = methods.filter(({ method }) => {
      const result = method.input({ notAField: 1 });
      if (!isArkErrors(result)) return true;
      return !fieldErrorsOf(result).some((e) => e.path === 'notAField' && e.id === 'UNKNOWN_FIELD');
    });
    expect(silent.map(({ name }) => name)).toEqual([]);
  });

  it('refuses an overlong string as INVALID_LENGTH before any other check of the field', () => {
    const result = contract.users.updateUser.input({ id: 'u1', givenName: 'x'.repeat(3000), familyName: 'Obi' });
    expect(isArkErrors(result) && fieldErrorsOf(result)).toEqual([
      { path: 'givenName', id: 'INVALID_LENGTH', message: 'Value must be at most 100 characters long' },
    ]);
    const email = contract.auth.beginResetPassword.input({ email: `${'a'.repeat(300)}@x.test`, frontEnd: 'support' });
    expect(isArkErrors(email) && fieldErrorsOf(email)).toEqual([
      { path: 'email', id: 'INVALID_LENGTH', message: 'Value must be at most 254 characters long' },
    ]);
  });
});
