import { AppError } from '@medlocker/core';
import type { Principal } from '../context/actor.ts';
import { authMessages } from './policy.ts';

/**
 * What a session that has proved the password only may call (`area/method`). Waiting for its second
 * factor: the second step, and leaving. Limited to setting one up (policy requires a factor and the user
 * has none): the session's own answer (the console shows the set-up screen from it), the set-up methods,
 * and leaving. Public methods (login, config) answer such a session as they answer nobody.
 */
export const methodsWhilePending: Record<NonNullable<Principal['pending']>, ReadonlySet<string>> = {
  second_factor: new Set(['auth/verifySecondFactor', 'auth/beginPasskeySignIn', 'auth/logout']),
  setup: new Set([
    'auth/session',
    'auth/logout',
    'auth/listSecondFactors',
    'auth/beginTotpSetup',
    'auth/finishTotpSetup',
    'auth/beginPasskeySetup',
    'auth/finishPasskeySetup',
  ]),
};

export const mayCallWhilePending = (pending: NonNullable<Principal['pending']>, area: string, method: string) =>
  methodsWhilePending[pending].has(`${area}/${method}`);

/** A pending session where only a full one may go (the console hub, a method not listed above). */
export function refusePending(principal: Principal | null, allowPending: boolean | undefined): Principal | null {
  if (!principal?.pending || allowPending) return principal;
  throw new AppError('UNAUTHENTICATED', authMessages.notLoggedIn);
}
