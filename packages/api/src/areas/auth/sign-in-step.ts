import type { MethodName } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Actor, StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, MethodOut } from '../../context/method.ts';
import { addressKey } from '../../rate-limits/address-key.ts';
import { authPolicy } from '../../sessions/policy.ts';
import { replaceSession, revokeSessionByToken, scopesOf } from '../../sessions/sessions.ts';
import { type Account, findUserById, toUser } from '../users/index.ts';
import { failedLoginBucket, tooMany, tooManyAttempts } from './login-limits.ts';
import type { Site } from './mails.ts';
import { clearLoginFailures, releaseAddressAttempt, reserveAddressAttempt, reserveLoginAttempt } from './repository.ts';
import { auditSecondFactorFailure, checkSecondFactor, type secondFactorStepFor } from './second-factor-sign-in.ts';

type Answer<M extends MethodName<'auth'>> = MethodOut<'auth', M>;

/** A signed-in session to hand the browser: the controller sets it as the session cookie. */
export type NewSession = { token: string; maxAgeSeconds: number };

const secondFactorMessage = 'Enter the code from your authenticator app or a recovery code, or use your passkey.';

/**
 * The session a right password earns: a full one; one that waits for the second factor (the answer
 * says SecondFactorRequired, and the cookie can only finish the sign-in); or, when policy wants a factor
 * the user has not got, a session limited to setting one up (`secondFactorSetupRequired`).
 */
export async function sessionAfterPassword(
  deps: AppDeps,
  actor: Actor,
  user: Account,
  previousToken: string | null,
  step: Awaited<ReturnType<typeof secondFactorStepFor>>,
): Promise<{ answer: Answer<'login'>; session: NewSession }> {
  const now = deps.now();
  const who = { userId: user.id, display: toUser(user).name };
  const pending = step?.pending ?? null;
  const { token, session } = await replaceSession(deps, actor, user.id, previousToken, now, {
    pending,
    authMethods: ['pwd'],
  });
  if (step?.pending === 'second_factor') {
    await audit(deps.db, deps, actor, {
      action: 'auth.login.password',
      entityType: 'user',
      entityId: user.id,
      who,
      details: { sessionId: session.id, secondFactor: step.methods },
    });
    return {
      answer: {
        ok: false,
        reason: 'SecondFactorRequired',
        message: secondFactorMessage,
        secondFactor: { methods: step.methods },
      },
      session: { token, maxAgeSeconds: authPolicy.secondFactorStepMs / 1000 },
    };
  }
  await audit(deps.db, deps, actor, {
    action: 'auth.login',
    entityType: 'user',
    entityId: user.id,
    who,
    details: { sessionId: session.id, authMethods: ['pwd'], ...(pending ? { secondFactorSetup: true } : {}) },
  });
  return {
    answer: {
      ok: true,
      result: {
        expires: session.expiresAt,
        scopes: await scopesOf(deps.db, user.id),
        user: toUser(user),
        ...(pending === 'setup' ? { secondFactorSetupRequired: true } : {}),
      },
    },
    session: { token, maxAgeSeconds: authPolicy.sessionAbsoluteMs / 1000 },
  };
}

/**
 * The second step of a sign-in. Each try is reserved against the same limits as a password, before it is
 * checked (the username's lockout and the address's failed sign-ins), and cleared only by a right answer;
 * a locked account checks nothing and ends the waiting session (the password must be given again). On a
 * right answer the waiting session is replaced by a full one with a new token.
 */
export async function verifySecondFactor(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'auth/verifySecondFactor'>,
  options: { token: string | null; site: Site },
): Promise<{ answer: Answer<'verifySecondFactor'>; session: NewSession | null }> {
  const { db } = deps;
  const now = deps.now();
  const user = await findUserById(db, actor.userId);
  if (!user) return { answer: tooManyAttempts, session: null };
  const username = user.emailNormalised;
  const address = actor.origin.ip === null ? null : addressKey(actor.origin.ip);
  const retryAfter = address === null ? null : await reserveAddressAttempt(db, address, failedLoginBucket, now);
  if (retryAfter !== null) throw tooMany('failed logins', retryAfter);
  const attempt = await reserveLoginAttempt(db, username, now);
  if (!attempt.allowed) {
    if (address !== null) await releaseAddressAttempt(db, address, failedLoginBucket);
    if (options.token) await revokeSessionByToken(db, options.token, now);
    await auditSecondFactorFailure(deps, actor, user.id, attempt.lockedUntil);
    return { answer: tooManyAttempts, session: null };
  }
  const proof = await checkSecondFactor(deps, actor, input, options.site);
  if (!proof) {
    await auditSecondFactorFailure(deps, actor, user.id, attempt.lockedUntil);
    if (attempt.lockedUntil !== null) {
      if (options.token) await revokeSessionByToken(db, options.token, now);
      return { answer: tooManyAttempts, session: null };
    }
    return { answer: { ok: false, reason: 'SecondFactorRequired', message: secondFactorMessage }, session: null };
  }
  await clearLoginFailures(db, username);
  if (address !== null) await releaseAddressAttempt(db, address, failedLoginBucket);
  const authMethods = ['pwd', proof.method];
  const { token, session } = await replaceSession(deps, actor, user.id, options.token, now, { authMethods });
  await audit(db, deps, actor, {
    action: 'auth.login',
    entityType: 'user',
    entityId: user.id,
    details: { sessionId: session.id, authMethods, factorId: proof.factorId },
  });
  return {
    answer: {
      ok: true,
      result: { expires: session.expiresAt, scopes: await scopesOf(db, user.id), user: toUser(user) },
    },
    session: { token, maxAgeSeconds: authPolicy.sessionAbsoluteMs / 1000 },
  };
}
