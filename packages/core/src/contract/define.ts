import type { Type } from 'arktype';

/**
 * Who may call a method.
 * - `public`: anyone (login, reset).
 * - `session`: any signed-in user (logout, own profile).
 * - `support`: a signed-in user holding the support scope (everything in the support console).
 */
export type Access = 'public' | 'session' | 'support';

export type Method<I extends Type = Type, O extends Type = Type> = {
  input: I;
  output: O;
  access: Access;
  /** One line for the OpenAPI page. */
  summary: string;
};

export type Area = Record<string, Method>;

/**
 * Keeps the literal types of an area while checking its shape. Every input refuses keys it does not
 * declare, at any depth (docs/DECISIONS.md, Nothing silently ignored): a misspelt or unsettable field
 * is a 400 naming it, never dropped.
 */
export const defineArea = <const A extends Area>(area: A): A => rejectingUndeclaredKeys(area);

function rejectingUndeclaredKeys<const A extends Area>(area: A): A {
  for (const method of Object.values(area)) method.input = method.input.onDeepUndeclaredKey('reject');
  return area;
}

export type InputOf<M extends Method> = M['input']['inferIn'];
export type ParsedInputOf<M extends Method> = M['input']['infer'];
export type OutputOf<M extends Method> = M['output']['infer'];
