import { type } from 'arktype';
import { unstorableJson, unstorableText } from '../validation/general.ts';

/**
 * Framing of the locker protocol, modelled on OCPP-J: every WebSocket text message is one JSON array.
 * - `[2, id, action, payload]` a call (a request that expects exactly one answer),
 * - `[3, id, payload]` its result,
 * - `[4, id, code, description, details]` its error.
 * `id` is a string chosen by the caller, unique among that caller's outstanding calls (≤ 36 chars).
 */
export const MessageType = { Call: 2, Result: 3, Error: 4 } as const;

/** Why a call failed. The same codes flow both ways. */
export const protocolErrorCodes = [
  /** The frame is not a JSON array of the right shape, or the payload does not match the action's schema. */
  'FormationViolation',
  /** The payload is well-formed but a field has a value of the wrong type or out of range. */
  'TypeConstraintViolation',
  /** The call breaks the protocol: e.g. a data-changing call without an event id, or before BootNotification. */
  'ProtocolError',
  /** The action is unknown to the receiver. */
  'NotImplemented',
  /** The action is known but the receiver does not support it (yet). */
  'NotSupported',
  /** The caller may not do this: e.g. a payload naming another machine. */
  'SecurityError',
  /** The receiver failed; the caller may retry the same call (same event id) later. */
  'InternalError',
  /** Anything else. */
  'GenericError',
] as const;
export const ProtocolErrorCode = type.enumerated(...protocolErrorCodes);
export type ProtocolErrorCode = typeof ProtocolErrorCode.infer;

/** The id an error frame carries when the message id of a broken frame could not be read. */
export const UNKNOWN_MESSAGE_ID = '-1';
export const MAX_MESSAGE_ID_LENGTH = 36;
/** Largest frame either side accepts, in characters; a locker batches readings below it. */
export const MAX_FRAME_LENGTH = 64 * 1024;

export type CallFrame = readonly [2, string, string, unknown];
export type ResultFrame = readonly [3, string, unknown];
export type ErrorFrame = readonly [4, string, ProtocolErrorCode, string, Record<string, unknown>];
export type Frame = CallFrame | ResultFrame | ErrorFrame;

export const callFrame = (id: string, action: string, payload: unknown): CallFrame => [2, id, action, payload];
export const resultFrame = (id: string, payload: unknown): ResultFrame => [3, id, payload];
export const errorFrame = (
  id: string,
  code: ProtocolErrorCode,
  description: string,
  details: Record<string, unknown> = {},
): ErrorFrame => [4, id, code, description, details];

/** What reading a frame gives: the frame, or the error frame to answer with. */
export type ParsedFrame = { ok: true; frame: Frame } | { ok: false; error: ErrorFrame };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const validId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_MESSAGE_ID_LENGTH;

/**
 * Reads one message (text, or JSON already parsed) into a frame. Never throws: anything unreadable gives
 * the error frame the receiver should send back, with the message id when it could be read, else '-1'.
 */
export function parseFrame(message: unknown): ParsedFrame {
  let value = message;
  if (typeof message === 'string') {
    if (message.length > MAX_FRAME_LENGTH) {
      return { ok: false, error: errorFrame(UNKNOWN_MESSAGE_ID, 'FormationViolation', 'Frame too large') };
    }
    try {
      value = JSON.parse(message);
    } catch {
      return { ok: false, error: errorFrame(UNKNOWN_MESSAGE_ID, 'FormationViolation', 'Frame is not valid JSON') };
    }
  }
  if (!Array.isArray(value) || value.length < 3) {
    return { ok: false, error: errorFrame(UNKNOWN_MESSAGE_ID, 'FormationViolation', 'Frame is not a JSON array') };
  }
  const [kind, id] = value;
  if (!validId(id)) {
    return {
      ok: false,
      error: errorFrame(UNKNOWN_MESSAGE_ID, 'FormationViolation', 'Message id must be a string of 1 to 36 characters'),
    };
  }
  // Text PostgreSQL cannot store (U+0000, an unpaired surrogate) or nesting too deep to walk safely is
  // refused here, as the API refuses it, rather than failing in the database or overflowing the stack
  // and being answered InternalError (which asks for a retry) or not at all.
  const problem = unstorableJson(value);
  if (problem) {
    return {
      ok: false,
      error: errorFrame(unstorableText(id) ? UNKNOWN_MESSAGE_ID : id, 'FormationViolation', problem),
    };
  }
  if (kind === MessageType.Call) {
    const [, , action, payload] = value;
    if (value.length !== 4 || typeof action !== 'string' || action === '' || !isObject(payload)) {
      return {
        ok: false,
        error: errorFrame(id, 'FormationViolation', 'A call is [2, id, action, payload] with an object payload'),
      };
    }
    return { ok: true, frame: [2, id, action, payload] };
  }
  if (kind === MessageType.Result) {
    if (value.length !== 3 || !isObject(value[2])) {
      return { ok: false, error: errorFrame(id, 'FormationViolation', 'A result is [3, id, payload]') };
    }
    return { ok: true, frame: [3, id, value[2]] };
  }
  if (kind === MessageType.Error) {
    const [, , code, description, details] = value;
    if (value.length !== 5 || typeof code !== 'string' || typeof description !== 'string' || !isObject(details)) {
      return {
        ok: false,
        error: errorFrame(id, 'FormationViolation', 'An error is [4, id, code, description, details]'),
      };
    }
    const known = ProtocolErrorCode.allows(code) ? code : 'GenericError';
    return { ok: true, frame: [4, id, known, description, details] };
  }
  return { ok: false, error: errorFrame(id, 'FormationViolation', 'Unknown message type') };
}

/** One frame as the text to send. */
export const encodeFrame = (frame: Frame): string => JSON.stringify(frame);
