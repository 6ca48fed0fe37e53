import type { ArkErrors } from 'arktype';
import type { FieldError } from '../errors/app-error.ts';
import './ark-env.ts';
import { validationMessage, validationMessages } from './catalogue.ts';

/**
 * Turns arktype's errors into the per-field details of an error body: the dot path, the SPEC §5
 * validation id (carried as `meta.validationId` by core's rules) and the message. Errors from plain
 * arktype keywords get a generic id from their arktype code, and a missing key 'Field is required'.
 */
export function fieldErrorsOf(errors: ArkErrors): FieldError[] {
  return [...errors].map((e) => {
    const path = e.path.join('.');
    const validationId = e.meta?.validationId;
    if (validationId) return { path, id: validationId, message: e.message };
    // A key the schema does not declare: arktype says 'x must be removed'.
    if (e.code === 'predicate' && e.expected === 'removed') {
      return { path, id: 'UNKNOWN_FIELD', message: validationMessage.unknownField(path) };
    }
    // A string over its maximum length: SPEC §5's words, whatever rule the length was declared on; a
    // list over its maximum count of items the same words in items, never "characters".
    if (e.code === 'maxLength') {
      const max = Number((e as unknown as { rule: number }).rule);
      return {
        path,
        id: 'INVALID_LENGTH',
        message: Array.isArray(e.data) ? validationMessage.maxItems(max) : validationMessage.maxLength(max),
      };
    }
    // A key left out: arktype says 'x must be a string (was missing)'; the SPEC says 'Field is required'.
    if (e.code === 'required') return { path, id: 'REQUIRED', message: validationMessages.FIELD_REQUIRED };
    return { path, id: genericIdOf(e.code), message: e.message };
  });
}

function genericIdOf(code: string): string {
  switch (code) {
    case 'required':
      return 'REQUIRED';
    case 'minLength':
    case 'maxLength':
    case 'exactLength':
      return 'INVALID_LENGTH';
    case 'pattern':
      return 'INVALID_FORMAT';
    case 'divisor':
      return 'INVALID_INTEGER';
    case 'min':
    case 'max':
      return 'INVALID_RANGE';
    default:
      return 'INVALID_FORMAT';
  }
}
