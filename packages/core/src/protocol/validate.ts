import { type Type, type } from 'arktype';
import { type HubAction, hubActions, type LockerAction, lockerActions } from './actions.ts';
import { type ErrorFrame, errorFrame } from './frames.ts';

export type Checked<A, P> = { ok: true; action: A; payload: P } | { ok: false; error: ErrorFrame };

/**
 * Checks a call against one side's table of actions: the action must exist (else NotImplemented) and
 * the payload match its request schema (else TypeConstraintViolation, with the problems in `details.problems`).
 */
function checkCall<A extends string>(
  actions: Readonly<Record<A, { request: Type }>>,
  id: string,
  action: string,
  payload: unknown,
): Checked<A, unknown> {
  const isKnown = (name: string): name is A => Object.hasOwn(actions, name);
  if (!isKnown(action)) return { ok: false, error: errorFrame(id, 'NotImplemented', `Unknown action ${action}`) };
  const parsed = actions[action].request(payload);
  if (parsed instanceof type.errors) {
    return {
      ok: false,
      error: errorFrame(id, 'TypeConstraintViolation', `Invalid ${action} payload`, { problems: parsed.summary }),
    };
  }
  return { ok: true, action, payload: parsed };
}

/** Checks a call a locker made, on the hub's side. */
export const checkLockerCall = (id: string, action: string, payload: unknown): Checked<LockerAction, unknown> =>
  checkCall<LockerAction>(lockerActions, id, action, payload);

/** Checks a call the hub made, on the locker's side. */
export const checkHubCall = (id: string, action: string, payload: unknown): Checked<HubAction, unknown> =>
  checkCall<HubAction>(hubActions, id, action, payload);
