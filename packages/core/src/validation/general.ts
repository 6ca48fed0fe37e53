import { type } from 'arktype';
import { toIsoDate } from '../format/date.ts';
import { validationMessage, validationMessages } from './catalogue.ts';
import { atMostLength, fail, reject, textInput } from './rule.ts';

/** SPEC §5 boolean: `true` or `false` only ('Invalid boolean'). */
export const Bool = type.boolean.configure({
  message: validationMessages.INVALID_BOOLEAN,
  validationId: 'INVALID_BOOLEAN',
});
export type Bool = typeof Bool.infer;

/**
 * PostgreSQL text cannot hold U+0000: the API refuses it in any request and the hub in any locker frame,
 * with this message, rather than failing in the database.
 */
export const nulCharacterMessage = 'Text cannot contain the NUL character (\\u0000)';

/**
 * A UTF-16 surrogate without its pair is not a character: PostgreSQL refuses it in jsonb (and text
 * would get U+FFFD instead), so the API and the hub refuse it too, with this message.
 */
export const loneSurrogateMessage = 'Text cannot contain an unpaired surrogate (\\uD800 to \\uDFFF)';

/** The deepest nesting of arrays and objects the API and the hub read: far more than any message needs. */
export const maxJsonDepth = 32;
export const tooDeepMessage = `JSON cannot be nested more than ${maxJsonDepth} levels deep`;

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL could not store this text, or null. */
export function unstorableText(s: string): string | null {
  if (s.includes('\u0000')) return nulCharacterMessage;
  return loneSurrogate.test(s) ? loneSurrogateMessage : null;
}

/**
 * Why parsed JSON (a request body, a locker frame) cannot be taken, or null: text PostgreSQL cannot
 * store (see {@link unstorableText}, object keys included) or nesting deeper than {@link maxJsonDepth},
 * which would overflow the stack of whatever walks it next (a validator's message, JSON.stringify).
 * Walks with a stack of its own: a 64 KB frame can nest 30,000 deep. `source`, the JSON text `value`
 * was parsed from, lets the walk skip every string when that text has no `\u` escape (see
 * {@link escapesFree}): a 1 MB import batch is then a walk of its objects only.
 */
export function unstorableJson(value: unknown, source?: string): string | null {
  const checkText = source === undefined || !escapesFree(source);
  // Last in, first out, an object's keys checked before its values: with two problems in one body,
  // the same one is named whether or not the text let the strings be skipped.
  const todo: unknown[] = [value];
  const depths: number[] = [0];
  while (todo.length > 0) {
    const v = todo.pop();
    const depth = depths.pop() as number;
    if (typeof v === 'string') {
      const problem = unstorableText(v);
      if (problem) return problem;
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= maxJsonDepth) return tooDeepMessage;
      const keys = Array.isArray(v) ? null : Object.keys(v);
      const items: unknown[] = keys ? keys.map((key) => (v as Record<string, unknown>)[key]) : (v as unknown[]);
      for (const key of keys ?? []) {
        const problem = checkText ? unstorableText(key) : null;
        if (problem) return problem;
      }
      for (const item of items) {
        if ((typeof item === 'object' && item !== null) || (checkText && typeof item === 'string')) {
          todo.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return null;
}

/**
 * True when JSON text decoded from UTF-8 can hold no text PostgreSQL refuses once parsed: JSON.parse
 * refuses a raw U+0000 (control characters must be escaped), a decoder never yields an unpaired surrogate
 * (bad bytes become U+FFFD), so such text can only come from a `\u` escape. Text with a `\u` anywhere
 * (an escaped backslash before a `u` too) is walked string by string.
 */
export function escapesFree(source: string): boolean {
  return !source.includes('\\u');
}

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `value` is a real calendar date written YYYY-MM-DD (no 2023-02-30). */
export function isIsoDate(value: string): boolean {
  const m = isoDatePattern.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** SPEC §5 date: a real calendar date as YYYY-MM-DD ('Invalid date'). */
export const IsoDate = textInput('INVALID_DATE', undefined, 32).narrow(
  (s, ctx) => isIsoDate(s) || reject(ctx, 'INVALID_DATE'),
);
export type IsoDate = typeof IsoDate.infer;

/** Today's date in Europe/London as YYYY-MM-DD: a date of birth is a UK calendar day. */
export const londonIsoDate = (at: number): string => toIsoDate(at);

/**
 * SPEC §5 date of birth: a YYYY-MM-DD date not after today in London ('Date must be in the past';
 * today itself is accepted: a baby registered on its birthday). `now` makes it testable.
 */
export const dateOfBirth = (now: () => number = Date.now) =>
  IsoDate.narrow((s, ctx) => s <= londonIsoDate(now()) || reject(ctx, 'DATE_NOT_IN_PAST'));

/** {@link dateOfBirth} against the clock. */
export const DateOfBirth = dateOfBirth();
export type DateOfBirth = typeof DateOfBirth.infer;

/** Options of {@link text}; lengths count UTF-16 code units, as the browser's maxlength does. */
export type TextOptions = { min?: number; max?: number; pattern?: RegExp };

/**
 * SPEC §5 string: optional minimum and maximum length ('Value must be at least N characters long' /
 * '… at most N …', INVALID_LENGTH) and pattern ('Value is not correctly formatted', INVALID_FORMAT).
 */
export const text = ({ min, max, pattern }: TextOptions = {}) =>
  textInput('INVALID_FORMAT', undefined, max).narrow((s, ctx) => {
    if (min !== undefined && s.length < min) return reject(ctx, 'INVALID_LENGTH', validationMessage.minLength(min));
    if (pattern && !pattern.test(s)) return reject(ctx, 'INVALID_FORMAT');
    return true;
  });

/** SPEC §5 required: some text other than blanks ('Please enter a value', REQUIRED). */
export const Required = textInput('REQUIRED').narrow((s, ctx) => s.trim() !== '' || reject(ctx, 'REQUIRED'));
export type Required = typeof Required.infer;

/** A control character (C0, DEL, C1) or a Unicode line or paragraph separator. */
const isControlCode = (c: number) => c < 32 || (c >= 127 && c <= 159) || c === 0x2028 || c === 0x2029;

/**
 * Required text on one line, for the names that reach message bodies and mail headers (businesses,
 * groups, machines, integration clients and partners): no line break or other control character
 * ('Value is not correctly formatted', INVALID_FORMAT).
 */
export const RequiredLine = Required.narrow((s, ctx) => {
  for (let i = 0; i < s.length; i++) if (isControlCode(s.charCodeAt(i))) return reject(ctx, 'INVALID_FORMAT');
  return true;
});

/**
 * True for the characters JavaScript's `trim()` and a regular expression's `\s` treat as blank: ASCII
 * tab to carriage return and space, no-break space, and the Unicode spaces and line separators.
 */
export function isBlankCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const AT = 64;
const DOT = 46;

/**
 * True when `value` looks like a deliverable email address: one @ with something before it, no blanks,
 * and a domain of at least two dot-separated, non-empty labels (what a person can type and a mail server
 * can route; the full RFC 5322 grammar accepts addresses no gateway will deliver to). The same as
 * /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, in one pass without a regular expression: an import runs it
 * on every row.
 */
export function isEmail(value: string): boolean {
  const n = value.length;
  if (n > 254) return false;
  let at = -1;
  let labels = 0;
  let labelLength = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (isBlankCode(c)) return false;
    if (c === AT) {
      if (at >= 0 || i === 0) return false;
      at = i;
    } else if (at >= 0 && c === DOT) {
      if (labelLength === 0) return false;
      labels++;
      labelLength = 0;
    } else if (at >= 0) {
      labelLength++;
    }
  }
  return at >= 0 && labelLength > 0 && labels >= 1;
}

/** SPEC §5 email, trimmed ('Invalid email', INVALID_EMAIL). */
export const Email = textInput('INVALID_EMAIL', undefined, 254).pipe((s, ctx) =>
  isEmail(s.trim()) ? s.trim() : fail(ctx, 'INVALID_EMAIL'),
);
export type Email = typeof Email.infer;

/** The forms' email rule: same check, the forms' wording ('Enter a valid email address', EXPECTED_EMAIL). */
export const FormEmail = textInput('EXPECTED_EMAIL', undefined, 254).pipe((s, ctx) =>
  isEmail(s.trim()) ? s.trim() : fail(ctx, 'EXPECTED_EMAIL'),
);

const decimalPattern = /^-?\d+(\.\d+)?$/;
const integerPattern = /^-?\d+$/;

/** Reads a number typed as text; strict (no '1e3', no '0x10', no ''), blanks around ignored. */
function numberOf(value: number | string, pattern: RegExp): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const s = value.trim();
  return pattern.test(s) ? Number(s) : undefined;
}

/** The longest number typed as text: far more digits than any number the product takes. */
const numberTextMaxLength = 32;

const numberOrText = type('number').or(atMostLength(numberTextMaxLength, type.string)).configure({
  message: validationMessages.INVALID_NUMBER,
  validationId: 'INVALID_NUMBER',
});

/** SPEC §5 number: a finite number, or text of one ('Invalid number'). Outputs a number. */
export const NumberValue = numberOrText.pipe((v, ctx) => numberOf(v, decimalPattern) ?? fail(ctx, 'INVALID_NUMBER'));

/** Reads a whole number or reports `id`; shared by the integer rules below. */
const integerRule = (check: (n: number) => boolean, id: Parameters<typeof fail>[1], message?: string) =>
  type('number')
    .or(atMostLength(numberTextMaxLength, type.string))
    .configure({ message: message ?? validationMessages[id], validationId: id })
    .pipe((v, ctx) => {
      const n = numberOf(v, integerPattern);
      return n !== undefined && Number.isSafeInteger(n) && check(n) ? n : fail(ctx, id, message);
    });

/** SPEC §5 integer ('Invalid integer'). */
export const IntegerValue = integerRule(() => true, 'INVALID_INTEGER');

/** SPEC §5 range: an integer from `min` to `max` inclusive ('Invalid range, value must be an integer between X and Y'). */
export const integerInRange = (min: number, max: number) =>
  integerRule((n) => n >= min && n <= max, 'INVALID_RANGE', validationMessage.range(min, max));

/** The latest time a JavaScript date holds (ms since the epoch): no time given as input is later. */
export const maxTimestamp = 8_640_000_000_000_000;

/**
 * A time given as input, ms since the epoch: a whole number from 0 to {@link maxTimestamp} ('Invalid
 * range, value must be an integer between 0 and 8640000000000000'), never one the database cannot hold.
 */
export const TimeInput = type('number.integer').narrow(
  (n, ctx) => (n >= 0 && n <= maxTimestamp) || reject(ctx, 'INVALID_RANGE', validationMessage.range(0, maxTimestamp)),
);

/**
 * SPEC §5 minimum integer ('Invalid minimum integer, value cannot be smaller than N'), and a most
 * (`Invalid range, value must be an integer between N and M`) where one is given.
 */
export const integerAtLeast = (min: number, max: number) =>
  minimumInteger(min).narrow((n, ctx) => n <= max || reject(ctx, 'INVALID_RANGE', validationMessage.range(min, max)));

/** SPEC §5 positive integer, and at most `max` (`Invalid range, value must be an integer between 1 and M`). */
export const positiveIntegerUpTo = (max: number) =>
  PositiveInteger.pipe((n, ctx) => (n <= max ? n : fail(ctx, 'INVALID_RANGE', validationMessage.range(1, max))));

/** SPEC §5 minimum integer ('Invalid minimum integer, value cannot be smaller than N'). */
export const minimumInteger = (min: number) =>
  integerRule((n) => n >= min, 'INVALID_MINIMUM_INTEGER', validationMessage.minimumInteger(min));

/** SPEC §5 positive integer: 1, 2, 3… ('Please enter a positive whole number'). */
export const PositiveInteger = integerRule((n) => n > 0, 'INVALID_POSITIVE_INTEGER');
