import { type ArkErrors, type Traversal, type Type, type } from 'arktype';
import './ark-env.ts';
import { type ValidationId, validationMessage, validationMessages } from './catalogue.ts';

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
export const textInput = (
  validationId: ValidationId,
  message: string = validationMessages[validationId],
  /** The longest value taken, checked before the rule's own checks (see {@link atMostLength}). */
  max?: number,
) => {
  const input = type.string.configure({ message, validationId });
  return max === undefined ? input : atMostLength(max, input);
};

/**
 * `base` limited to `max` characters (UTF-16 code units, as the browser's maxlength counts): longer is
 * INVALID_LENGTH with SPEC §5's 'Value must be at most N characters long'. A native arktype constraint,
 * so it runs before `base`'s narrows and pipes and shows in the JSON Schema as `maxLength`.
 */
export function atMostLength<T extends Type<string>>(max: number, base: T): T {
  const bounded = (base as unknown as Type<string>).atMostLength(max);
  return bounded.configure({ message: validationMessage.maxLength(max), validationId: 'INVALID_LENGTH' }, {
    kind: 'maxLength',
  } as never) as unknown as T;
}

/** True when a call of an arktype type failed; a readable alias of `instanceof type.errors`. */
export const isArkErrors = (value: unknown): value is ArkErrors => value instanceof type.errors;

/** {@link fail} for `.narrow` predicates, which must answer a boolean. */
export const reject = (
  ctx: Traversal,
  validationId: ValidationId,
  message: string = validationMessages[validationId],
  path?: PropertyKey[],
): false => ctx.reject({ message, meta: { validationId }, ...(path ? { path } : {}) });
