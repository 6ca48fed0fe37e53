import { type } from 'arktype';
import {
  type HubAction,
  hubActions,
  isHubAction,
  isLockerAction,
  type LockerAction,
  lockerActions,
} from './actions.ts';
import { type ErrorFrame, errorFrame } from './frames.ts';

export type Checked<A, P> = { ok: true; action: A; payload: P } | { ok: false; error: ErrorFrame };

/**
 * Checks a call a locker made: the action must exist (else NotImplemented) and the payload match its
 * schema (else TypeConstraintViolation, with the problems in `details.problems`).
 */
export function checkLockerCall(id: string, action: string, payload: unknown): Checked<LockerAction, unknown> {
  if (!isLockerAction(action))
    return { ok: false, error: errorFrame(id, 'NotImplemented', `Unknown action ${action}`) };
  const parsed = lockerActions[action].request(payload);
  if (parsed instanceof type.errors) {
    return {
      ok: false,
      error: errorFrame(id, 'TypeConstraintViolation', `Invalid ${action} payload`, { problems: parsed.summary }),
    };
  }
  return { ok: true, action, payload: parsed };
}

/** Checks a call the hub made, on the locker's side. */
export function checkHubCall(id: string, action: string, payload: unknown): Checked<HubAction, unknown> {
  if (!isHubAction(action)) return { ok: false, error: errorFrame(id, 'NotImplemented', `Unknown action ${action}`) };
  const parsed = hubActions[action].request(payload);
  if (parsed instanceof type.errors) {
    return {
      ok: false,
      error: errorFrame(id, 'TypeConstraintViolation', `Invalid ${action} payload`, { problems: parsed.summary }),
    };
  }
  return { ok: true, action, payload: parsed };
}
