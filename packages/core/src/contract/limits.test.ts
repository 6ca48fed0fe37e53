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

/** A step into an input: a key of an object, or the first item of a list. */
type Step = string | 0;

const isNumber = (s: Schema) => s.type === 'number' || s.type === 'integer';

/**
 * Every string field with a maximum length in an input's JSON Schema, nested ones and list items too,
 * with its path. The text branch of a number field (a number or text of one) is left out: its words
 * are the number rule's own ('Please enter a positive whole number') whatever the text is.
 */
function boundedStringsOf(schema: unknown, path: Step[] = [], found: { path: Step[]; max: number }[] = []) {
  if (!schema || typeof schema !== 'object') return found;
  const s = schema as Schema;
  if (s.type === 'string' && typeof s.maxLength === 'number') found.push({ path, max: s.maxLength });
  for (const [key, child] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    boundedStringsOf(child, [...path, key], found);
  }
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) boundedStringsOf(s.items, [...path, 0], found);
  for (const branches of [s.anyOf, s.allOf, s.oneOf] as (Schema[] | undefined)[]) {
    const numberField = branches?.some(isNumber) ?? false;
    for (const branch of branches ?? []) {
      if (!(numberField && branch.type === 'string')) boundedStringsOf(branch, path, found);
    }
  }
  return found;
}

/** An input holding `leaf` at `path` (and nothing else). */
function inputWith([step, ...rest]: Step[], leaf: unknown): unknown {
  if (step === undefined) return leaf;
  return step === 0 ? [inputWith(rest, leaf)] : { [step]: inputWith(rest, leaf) };
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

  it("tells every overlong string SPEC §5's length message itself, so the error body's message says it too", () => {
    const plain = methods.flatMap(({ name, method }) => {
      const fields = new Map(boundedStringsOf(inputSchemaOf(method)).map((f) => [`${f.path.join('.')}:${f.max}`, f]));
      return [...fields.values()].flatMap(({ path, max }) => {
        const result = method.input(inputWith(path, 'x'.repeat(max + 1)));
        const at = path.join('.');
        const error = isArkErrors(result) ? [...result].find((e) => e.path.join('.') === at) : undefined;
        return error?.message === validationMessage.maxLength(max) ? [] : [`${name}.${at}: ${error?.message}`];
      });
    });
    expect(plain).toEqual([]);
  });
});
