import { describe, expect, it } from 'bun:test';
import { validationMessage } from '../validation/catalogue.ts';
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

/** The top-level string fields of an input's JSON Schema (of each branch of a union), with their maximum length. */
function topLevelStringsOf(schema: unknown): [key: string, max: number][] {
  const s = schema as Schema;
  const branches = (s.properties ? [s] : [...((s.anyOf ?? s.allOf ?? []) as Schema[])]).filter((b) => b.properties);
  return branches.flatMap((branch) =>
    Object.entries(branch.properties as Record<string, Schema>).flatMap(([key, field]) => {
      const string = [field, ...((field.anyOf ?? []) as Schema[])].find((f) => f.type === 'string');
      return typeof string?.maxLength === 'number' ? [[key, string.maxLength] as [string, number]] : [];
    }),
  );
}

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

  it("tells an overlong id SPEC §5's length message itself, so the error body's message says it too", () => {
    const plain = methods.flatMap(({ name, method }) =>
      topLevelStringsOf(inputSchemaOf(method))
        .filter(([key]) => key === 'id' || key.endsWith('Id'))
        .flatMap(([key, max]) => {
          const result = method.input({ [key]: 'x'.repeat(max + 1) });
          const error = isArkErrors(result) ? [...result].find((e) => e.path.join('.') === key) : undefined;
          return error?.message === validationMessage.maxLength(max) ? [] : [`${name}.${key}: ${error?.message}`];
        }),
    );
    expect(plain).toEqual([]);
  });
});
