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

/** Keeps the literal types of an area while checking its shape. */
export const defineArea = <const A extends Area>(area: A): A => area;

export type InputOf<M extends Method> = M['input']['inferIn'];
export type ParsedInputOf<M extends Method> = M['input']['infer'];
export type OutputOf<M extends Method> = M['output']['infer'];
