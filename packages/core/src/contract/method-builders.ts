import { type Type, type } from 'arktype';
import { Id } from '../validation/string-limits.ts';
import type { Method } from './define.ts';

/*
 * Builders of method declarations whose input is always the same shape. They live apart from
 * define.ts, which the console and the patient page import for its types and access helpers: a module
 * that builds arktype schemas when loaded keeps arktype in every bundle that imports it.
 */

/** A method's declaration without its input, for the builders here that supply it. */
export type MethodWithoutInput = Omit<Method, 'input'>;

/**
 * The builder of methods whose whole input is the id of the one row they act on, in `field`
 * (`{ id }`, `{ orderId }`), checked by SPEC §5's `Id`; each method then gives only its output, access
 * and summary.
 */
const methodsTakingId =
  <const K extends string>(field: K) =>
  <const M extends MethodWithoutInput>(method: M) => ({
    // arktype cannot infer an object definition whose key is a type parameter: the input is `{ [field]: string }`.
    input: type({ [field]: Id } as Record<string, Type<string>>) as unknown as Type<Record<K, string>>,
    ...method,
  });

/** A method on one row named by `id`. */
export const byId = methodsTakingId('id');
/** A method on one business named by `businessId`. */
export const byBusinessId = methodsTakingId('businessId');
/** A method on one order named by `orderId`. */
export const byOrderId = methodsTakingId('orderId');
/** A method on one patient named by `patientId`. */
export const byPatientId = methodsTakingId('patientId');
/** A method on one user named by `userId`. */
export const byUserId = methodsTakingId('userId');

/** A method that takes nothing: its input is the empty object, `{}`. */
export const withoutInput = <const M extends MethodWithoutInput>(method: M) => ({ input: type({}), ...method });
