import { type ArkErrors, type Traversal, type } from 'arktype';
import './ark-env.ts';
import { type ValidationId, validationMessages } from './catalogue.ts';

/**
 * Records a SPEC §5 failure on arktype's traversal context: the message is the field's whole message
 * (arktype does not prefix it with the path) and the id travels as meta for `fieldErrorsOf`.
 */
export const fail = (
  ctx: Traversal,
  validationId: ValidationId,
  message: string = validationMessages[validationId],
  /** Absolute path, for a failure found on a child (a list item, a confirmation field). */
  path?: PropertyKey[],
) => ctx.error({ message, meta: { validationId }, ...(path ? { path } : {}) });

/**
 * A string input whose wrong-type error already carries the rule's id and message, so
 * `NhsNumber(42).summary` is the SPEC message rather than arktype's 'must be a string'.
 */
export const textInput = (validationId: ValidationId, message: string = validationMessages[validationId]) =>
  type.string.configure({ message, validationId });

/** True when a call of an arktype type failed; a readable alias of `instanceof type.errors`. */
export const isArkErrors = (value: unknown): value is ArkErrors => value instanceof type.errors;

/** {@link fail} for `.narrow` predicates, which must answer a boolean. */
export const reject = (
  ctx: Traversal,
  validationId: ValidationId,
  message: string = validationMessages[validationId],
  path?: PropertyKey[],
): false => ctx.reject({ message, meta: { validationId }, ...(path ? { path } : {}) });
