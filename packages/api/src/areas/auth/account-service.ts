import { AppError, counted, deviceOf } from '@medlocker/core';
import { callerOf, reachesRole } from '../../access/enforce.ts';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { liveOf } from '../../live/live.ts';
import { addressKey } from '../../rate-limits/address-key.ts';
import { hashPassword, verifyPassword } from '../../sessions/passwords.ts';
import { authMessages } from '../../sessions/policy.ts';
import { findSession, liveSessionsOf, revokeOtherSessions, revokeSession } from '../../sessions/sessions.ts';
import { findUserById, rolesOfUser, toUser } from '../users/index.ts';
import { accountStatusOf, enableAccount } from './account-repository.ts';
import {
  clearLoginFailures,
  releaseAddressAttempt,
  reserveAddressAttempt,
  reserveLoginAttempt,
  setPassword,
} from './repository.ts';
import { addressLimits } from './service.ts';

/** A wrong current password: a 400 on the field, in the words of a sign-in refusal. */
export const wrongCurrentPassword = 'Your current password is not correct';

const failedLoginBucket = { capacity: addressLimits.failedLogins, perMs: addressLimits.failedLoginsPerMs };

/**
 * Changes the signed-in user's password. The current password is checked under the same limits as a
 * sign-in, each reserved before argon2 runs (so concurrent guesses cannot slip under them): a wrong one
 * counts towards the account's lockout and the address's failed logins, exactly as at /auth/login. The
 * other sessions of the user end (every api process forgets them at once); the caller's stays.
 */
export const changePassword: Service<'auth/changePassword'> = async (deps, actor, input) => {
  const { db } = deps;
  const now = deps.now();
  const user = await findUserById(db, actor.userId);
  if (!user) throw new AppError('UNAUTHENTICATED', authMessages.sessionTimedOut);
  if (user.identityProviderId !== null) {
    throw new AppError('CONFLICT', 'You sign in through your identity provider: change your password there');
  }
  const who = { userId: user.id, display: toUser(user).name };
  const address = actor.origin.ip === null ? null : addressKey(actor.origin.ip);
  const retryAfter = address === null ? null : await reserveAddressAttempt(db, address, failedLoginBucket, now);
  if (retryAfter !== null) {
    await audit(db, deps, actor, { action: 'auth.password.change.throttled', entityType: 'user', entityId: user.id });
    const wait = Math.max(1, Math.ceil(retryAfter / 60));
    throw new AppError(
      'RATE_LIMITED',
      `Too many failed logins from this address. Please try again in ${counted(wait, 'minute')}.`,
      undefined,
      retryAfter,
    );
  }
  const attempt = await reserveLoginAttempt(db, user.emailNormalised, now);
  if (!attempt.allowed) {
    if (address !== null) await releaseAddressAttempt(db, address, failedLoginBucket);
    await audit(db, deps, actor, { action: 'auth.password.change.locked', entityType: 'user', entityId: user.id });
    throw new AppError('RATE_LIMITED', authMessages.tooManyAttempts, undefined, 5 * 60);
  }
  const valid = await verifyPassword(input.currentPassword, user.passwordHash, deps.config.passwordHashing);
  if (!valid) {
    await audit(db, deps, actor, {
      action: 'auth.password.change.failed',
      entityType: 'user',
      entityId: user.id,
      who,
      details: { lockedUntil: attempt.lockedUntil },
    });
    if (attempt.lockedUntil !== null) throw new AppError('RATE_LIMITED', authMessages.tooManyAttempts, undefined, 300);
    throw new AppError('BAD_REQUEST', wrongCurrentPassword, [
      { path: 'currentPassword', id: 'INVALID_CURRENT_PASSWORD', message: wrongCurrentPassword },
    ]);
  }
  await clearLoginFailures(db, user.emailNormalised);
  if (address !== null) await releaseAddressAttempt(db, address, failedLoginBucket);
  const passwordHash = await hashPassword(input.newPassword, deps.config.passwordHashing);
  const endedSessions = await db.transaction().execute(async (trx) => {
    await setPassword(trx, user.id, passwordHash, now);
    const ended = await revokeOtherSessions(trx, user.id, actor.sessionId, now);
    await audit(trx, deps, actor, {
      action: 'auth.password.change',
      entityType: 'user',
      entityId: user.id,
      details: { endedSessions: ended },
    });
    return ended;
  });
  // The other sessions are forgotten by every process's session cache, and their consoles hung up on.
  liveOf(deps).accessChanged(user.id);
  return { ok: true, endedSessions };
};

/** One's own sessions; support staff may name anyone. Nobody else learns whether the user exists. */
function assertSelfOrSupport(actor: StaffActor, userId: string): void {
  if (actor.userId !== userId && actor.kind !== 'support') {
    throw new AppError('FORBIDDEN', 'You do not have access to this user');
  }
}

export const listSessions: Service<'auth/listSessions'> = async (deps, actor, input) => {
  const userId = input.userId ?? actor.userId;
  assertSelfOrSupport(actor, userId);
  const rows = await liveSessionsOf(deps.db, userId, deps.now());
  if (userId !== actor.userId) {
    await audit(deps.db, deps, actor, {
      action: 'session.list',
      entityType: 'user',
      entityId: userId,
      details: { sessionIds: rows.map((r) => r.id) },
    });
  }
  return {
    sessions: rows.map((r) => ({
      id: r.id,
      device: deviceOf(r.userAgent),
      userAgent: r.userAgent,
      ip: r.ip,
      created: r.created,
      lastSeen: r.lastSeen,
      current: r.id === actor.sessionId,
    })),
  };
};

/**
 * Ends one session: one's own, or (support staff) anyone's. Another user's session is a 404 to anyone
 * else, as one that does not exist. Audited as `session.end`, naming whose session it was.
 */
export const endSession: Service<'auth/endSession'> = async (deps, actor, input) => {
  const now = deps.now();
  const session = await findSession(deps.db, input.sessionId);
  if (!session || (session.userId !== actor.userId && actor.kind !== 'support')) {
    throw new AppError('NOT_FOUND', 'No such session');
  }
  const ended = await deps.db.transaction().execute(async (trx) => {
    const revoked = await revokeSession(trx, session.id, now);
    if (revoked) {
      await audit(trx, deps, actor, {
        action: 'session.end',
        entityType: 'user',
        entityId: session.userId,
        details: { sessionId: session.id, userId: session.userId, own: session.userId === actor.userId },
      });
    }
    return revoked;
  });
  if (ended) liveOf(deps).accessChanged(session.userId);
  return { ok: true };
};

/** Ends every session of the user but the caller's own (support naming another user: all of theirs). */
export const endOtherSessions: Service<'auth/endOtherSessions'> = async (deps, actor, input) => {
  const userId = input.userId ?? actor.userId;
  assertSelfOrSupport(actor, userId);
  const now = deps.now();
  const ended = await deps.db.transaction().execute(async (trx) => {
    const count = await revokeOtherSessions(trx, userId, userId === actor.userId ? actor.sessionId : null, now);
    if (count > 0) {
      await audit(trx, deps, actor, {
        action: 'session.endOthers',
        entityType: 'user',
        entityId: userId,
        details: { userId, ended: count, own: userId === actor.userId },
      });
    }
    return count;
  });
  if (ended > 0) liveOf(deps).accessChanged(userId);
  return { ok: true, ended };
};

/**
 * Whether the caller may manage this user's account: support staff anyone; anybody themselves; a
 * pharmacy Admin a holder of a Business or Group role on what they administer. A pharmacy user who
 * reaches one of the user's roles without Admin is refused (403); anyone else gets 404, as for no user.
 */
async function assertManages(deps: AppDeps, actor: StaffActor, userId: string) {
  const user = await findUserById(deps.db, userId);
  if (actor.kind === 'support' || actor.userId === userId) {
    if (!user) throw new AppError('NOT_FOUND', 'No such user');
    return user;
  }
  const roles = user ? await rolesOfUser(deps.db, user.id) : [];
  const caller = callerOf(actor);
  if (user && roles.some((r) => reachesRole(caller, r, { admin: true }))) return user;
  if (roles.some((r) => reachesRole(caller, r, { admin: false }))) {
    throw new AppError('FORBIDDEN', 'You need the Admin access level to see this user');
  }
  throw new AppError('NOT_FOUND', 'No such user');
}

export const getAccountStatus: Service<'auth/getAccountStatus'> = async (deps, actor, input) => {
  const user = await assertManages(deps, actor, input.userId);
  const status = await accountStatusOf(deps.db, user.id);
  if (!status) throw new AppError('NOT_FOUND', 'No such user');
  return status;
};

/** Enables an account disabled for not being used; the days count again from now. Audited. */
export const enableUser: Service<'auth/enableUser'> = async (deps, actor, input) => {
  const user = await assertManages(deps, actor, input.userId);
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    const before = await accountStatusOf(trx, user.id);
    if (await enableAccount(trx, user.id, now)) {
      await audit(trx, deps, actor, {
        action: 'user.enable',
        entityType: 'user',
        entityId: user.id,
        details: { disabledAt: before?.disabledAt ?? null, reason: before?.disabledReason ?? null },
      });
    }
  });
  const status = await accountStatusOf(deps.db, user.id);
  if (!status) throw new AppError('NOT_FOUND', 'No such user');
  return status;
};
