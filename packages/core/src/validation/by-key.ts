import type { Traversal } from 'arktype';
import type { ValidationId } from './catalogue.ts';
import { reject } from './rule.ts';

/*
 * Values written once per key of a list (SMS templates by key, alarm messages by code): the schema's
 * keys come from the list, so a new key is added in one place.
 */

/** An arktype definition with `value` under every key, in the list's order: `{ a: value, b: value }`. */
export const eachKey = <const K extends string, const V>(keys: readonly K[], value: V) =>
  Object.fromEntries(keys.map((key) => [key, value])) as { [key in K]: V };

/** The same with every key optional (`{ 'a?': value, … }`): a key left out keeps what it had. */
export const anyKey = <const K extends string, const V>(keys: readonly K[], value: V) =>
  Object.fromEntries(keys.map((key) => [`${key}?`, value])) as { [key in K as `${key}?`]: V };

/**
 * A `.narrow` for values by key: each value given is checked by `problemOf`, and its problem is
 * reported at the value's own path (one per key: arktype folds several errors at one path into a
 * generic one).
 */
export const eachGiven =
  <K extends string>(
    keys: readonly K[],
    problemOf: (key: K, value: string) => { id: ValidationId; message?: string } | null | undefined,
  ) =>
  (values: Partial<Record<K, string>>, ctx: Traversal): boolean => {
    let ok = true;
    for (const key of keys) {
      const value = values[key];
      if (value === undefined) continue;
      const problem = problemOf(key, value);
      if (problem) ok = reject(ctx, problem.id, problem.message, [...ctx.path, key]);
    }
    return ok;
  };
