import { type } from 'arktype';

/** The answer of a method that has nothing more to say than that it was done: `{ ok: true }`. */
export const Ok = type({ ok: 'true' });
