import { AppError, messages } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, MethodOut, Out, Service } from '../../context/method.ts';
import { liveOf } from '../../live/live.ts';
import { addressKey } from '../../rate-limits/address-key.ts';
import { reserveToken } from '../../rate-limits/repository.ts';
import { hashPassword, verifyPassword } from '../../sessions/passwords.ts';
import { authMessages, authPolicy } from '../../sessions/policy.ts';
import {
  accountDisabled,
  findSession,
  revokeSessionByToken,
  revokeUserSessions,
  sessionStepOf,
} from '../../sessions/sessions.ts';
import { hashToken, newToken } from '../../sessions/tokens.ts';
import { beginSso } from '../sso/index.ts';
import { findUserByEmail, findUserById, insertUser, normaliseEmail, toUser } from '../users/index.ts';
import {
  addressLimits,
  failedLoginBucket,
  invalidCredentials,
  mailBucket,
  tooMany,
  tooManyAttempts,
} from './login-limits.ts';
import { authMail, linkOrigin, type MailKind, resetLink, type Site } from './mails.ts';
import {
  clearLoginFailures,
  consumeResetToken,
  findIdentityProvider,
  insertResetToken,
  linkSentSince,
  releaseAddressAttempt,
  reserveAddressAttempt,
  reserveLoginAttempt,
  resetTokenUsable,
  setPassword,
} from './repository.ts';
import { secondFactorStepFor } from './second-factor-sign-in.ts';
import { type NewSession, sessionAfterPassword } from './sign-in-step.ts';

/** Refuses a call that would send mail when this address has sent too many (no address: in-process). */
async function takeMail(deps: AppDeps, actor: Actor) {
  const { ip } = actor.origin;
  if (ip === null) return;
  // In the database (rate_buckets), so every api process draws on the same bucket.
  const retryAfter = await reserveToken(deps.db, `auth-mail:${addressKey(ip)}`, mailBucket, deps.now());
  if (retryAfter !== null) throw tooMany('requests', retryAfter);
}

export function config(deps: AppDeps, _actor: Actor, _input: In<'auth/config'>): MethodOut<'auth', 'config'> {
  return { allowRegistration: deps.config.allowRegistration, productName: deps.config.productName };
}

export type { NewSession };

/**
 * Password login. A locked username is refused before any hashing; an unknown username costs the same
 * argon2 work as a known one and gets the same answer as a wrong password; every failure counts
 * towards the lockout whatever the password and whether the account exists.
 */
export async function login(
  deps: AppDeps,
  actor: Actor,
  input: In<'auth/login'>,
  options: { previousToken: string | null },
): Promise<{ answer: MethodOut<'auth', 'login'>; session: NewSession | null }> {
  const { db } = deps;
  const username = normaliseEmail(input.username);
  const now = deps.now();
  const anonymous = { userId: null, display: username };
  const address = actor.origin.ip === null ? null : addressKey(actor.origin.ip);

  // Both limits are reserved before the password is checked, each in one statement in the database,
  // so concurrent attempts (and several api processes) cannot all slip under them; the reservations
  // are kept as failures unless the password turns out right.
  const retryAfter = address === null ? null : await reserveAddressAttempt(db, address, failedLoginBucket, now);
  if (retryAfter !== null) {
    await audit(db, deps, actor, {
      action: 'auth.login.throttled',
      entityType: 'user',
      who: anonymous,
      details: { username },
    });
    throw tooMany('failed logins', retryAfter);
  }
  const attempt = await reserveLoginAttempt(db, username, now);
  if (!attempt.allowed) {
    // A locked account checks nothing, so it costs the address nothing either.
    if (address !== null) await releaseAddressAttempt(db, address, failedLoginBucket);
    await audit(db, deps, actor, {
      action: 'auth.login.locked',
      entityType: 'user',
      who: anonymous,
      details: { username },
    });
    return { answer: tooManyAttempts, session: null };
  }
  const user = await findUserByEmail(db, username);
  // A single-sign-on user has no password here: whatever was typed, it is refused (same work, same answer).
  const valid = await verifyPassword(input.password, user?.passwordHash, deps.config.passwordHashing);
  if (!valid || !user || user.identityProviderId !== null) {
    await audit(db, deps, actor, {
      action: 'auth.login.failed',
      entityType: 'user',
      entityId: user?.id ?? null,
      who: anonymous,
      details: { username, lockedUntil: attempt.lockedUntil },
    });
    return { answer: attempt.lockedUntil !== null ? tooManyAttempts : invalidCredentials, session: null };
  }
  // The right password. With a second factor to come, the username's reservation stays a failure until
  // the factor clears it (a stolen password alone cannot buy unlimited tries at the codes); the lock it
  // may have reached holds. Otherwise neither reservation was a failure.
  const step = await secondFactorStepFor(deps, user.id);
  if (step?.pending === 'second_factor' && attempt.lockedUntil !== null) {
    if (address !== null) await releaseAddressAttempt(db, address, failedLoginBucket);
    return { answer: tooManyAttempts, session: null };
  }
  if (step?.pending !== 'second_factor') await clearLoginFailures(db, username);
  if (address !== null) await releaseAddressAttempt(db, address, failedLoginBucket);
  const who = { userId: user.id, display: toUser(user).name };
  const disabled = await refusedAsDisabled(deps, actor, user.id, who);
  if (disabled) return { answer: disabled, session: null };
  if (user.forceReset) {
    await audit(db, deps, actor, { action: 'auth.login.forceReset', entityType: 'user', entityId: user.id, who });
    return { answer: { ok: false, reason: 'ForceReset', message: authMessages.forceReset }, session: null };
  }
  return sessionAfterPassword(deps, actor, user, options.previousToken, step);
}

/**
 * The answer to the right password of an account disabled for not being used, told only to whoever knows
 * the password (docs/decisions/auth.md); null when the account is enabled.
 */
async function refusedAsDisabled(
  deps: AppDeps,
  actor: Actor,
  userId: string,
  who: { userId: string; display: string },
): Promise<MethodOut<'auth', 'login'> | null> {
  if (!(await accountDisabled(deps.db, userId))) return null;
  await audit(deps.db, deps, actor, { action: 'auth.login.disabled', entityType: 'user', entityId: userId, who });
  return { ok: false, reason: 'AccountDisabled', message: messages.accountDisabled(deps.config.productName) };
}

/** Ends the session of `token` server-side (expired ones too); the controller clears the cookie. */
export async function logout(
  deps: AppDeps,
  actor: Actor,
  _input: In<'auth/logout'>,
  options: { token: string | null },
): Out<'auth/logout'> {
  const { token } = options;
  if (token) {
    const ended = await revokeSessionByToken(deps.db, token, deps.now());
    if (ended) {
      // Its open consoles are hung up on (the console hub checks their sessions again).
      liveOf(deps).accessChanged(ended.userId);
      await audit(deps.db, deps, actor, {
        action: 'auth.logout',
        entityType: 'user',
        entityId: ended.userId,
        who: {
          userId: ended.userId,
          display: actor.kind === 'support' || actor.kind === 'pharmacy' ? actor.displayName : null,
        },
      });
    }
  }
  return { ok: true };
}

export const session: Service<'auth/session'> = async (deps, actor, _input) => {
  const { db } = deps;
  const current = await findSession(db, actor.sessionId);
  const user = await findUserById(db, actor.userId);
  if (!current || !user) throw new AppError('UNAUTHENTICATED', authMessages.sessionTimedOut);
  const step = await sessionStepOf(db, actor.sessionId);
  return {
    expires: current.expiresAt,
    scopes: actor.scopes,
    user: toUser(user),
    ...(step?.pending === 'setup' ? { secondFactorSetupRequired: true } : {}),
  };
};

/**
 * Emails a one-time link to set a password. Sent in the background and errors only logged: how long
 * the answer takes must not tell whether the address has an account.
 */
async function sendPasswordLink(
  deps: AppDeps,
  actor: Actor,
  site: Site,
  user: { id: string; email: string },
  kind: MailKind,
  options: { await?: boolean } = {},
): Promise<void> {
  const origin = linkOrigin(deps, site);
  if (!origin) {
    deps.logger.error('PUBLIC_URL is not set: password links cannot be sent in production', {
      requestId: actor.origin.requestId,
    });
    return;
  }
  const token = newToken();
  const lifetime = kind === 'reset' ? authPolicy.resetTokenMs : authPolicy.inviteTokenMs;
  await insertResetToken(deps.db, user.id, hashToken(token), deps.now(), lifetime);
  const sending = deps.mailer.send(authMail(kind, user.email, resetLink(origin, token, kind), deps.config.productName));
  if (options.await) return sending;
  sending.catch((error: unknown) =>
    deps.logger.error('password link email failed', {
      requestId: actor.origin.requestId,
      userId: user.id,
      error: error instanceof Error ? error.message : String(error),
    }),
  );
}

/** True when a link was sent to this user within the last minute: a mailbox is not to be flooded. */
async function sentRecently(deps: AppDeps, userId: string): Promise<boolean> {
  return linkSentSince(deps.db, userId, deps.now() - 60_000);
}

export async function register(
  deps: AppDeps,
  actor: Actor,
  input: In<'auth/register'>,
  site: Site,
): Out<'auth/register'> {
  if (!deps.config.allowRegistration) throw new AppError('FORBIDDEN', 'Registration is not available');
  await takeMail(deps, actor);
  const { db } = deps;
  const existing = await findUserByEmail(db, input.email);
  if (existing) {
    // Same answer as a new registration; the owner gets a reset link instead of a second account.
    if (existing.identityProviderId === null && !(await sentRecently(deps, existing.id)))
      await sendPasswordLink(deps, actor, site, existing, 'reset');
    await audit(db, deps, actor, {
      action: 'user.register.existing',
      entityType: 'user',
      entityId: existing.id,
      who: { userId: null, display: normaliseEmail(input.email) },
    });
    return { ok: true };
  }
  const created = await insertUser(db, {
    email: input.email,
    givenName: input.givenName,
    familyName: input.familyName,
    frontEnd: input.frontEnd,
    identityProviderId: null,
    now: deps.now(),
  });
  if (created) {
    await audit(db, deps, actor, {
      action: 'user.register',
      entityType: 'user',
      entityId: created.id,
      who: { userId: null, display: created.emailNormalised },
      details: { frontEnd: input.frontEnd },
    });
    await sendPasswordLink(deps, actor, site, created, 'register');
  }
  return { ok: true };
}

export async function beginResetPassword(
  deps: AppDeps,
  actor: Actor,
  input: In<'auth/beginResetPassword'>,
  site: Site,
): Out<'auth/beginResetPassword'> {
  await takeMail(deps, actor);
  const { db } = deps;
  const user = await findUserByEmail(db, input.email);
  const throttled = user ? await sentRecently(deps, user.id) : false;
  // Single-sign-on users have no password to reset: same answer, no link.
  const sso = user?.identityProviderId != null;
  if (user && !throttled && !sso) await sendPasswordLink(deps, actor, site, user, 'reset');
  await audit(db, deps, actor, {
    action: 'auth.reset.requested',
    entityType: 'user',
    entityId: user?.id ?? null,
    who: { userId: null, display: normaliseEmail(input.email) },
    details: { known: user !== undefined, throttled, sso },
  });
  return { ok: true };
}

const invalidLink = () =>
  new AppError('BAD_REQUEST', authMessages.invalidResetLink, [
    { path: 'token', id: 'INVALID_RESET_LINK', message: authMessages.invalidResetLink },
  ]);

export const completeResetPassword: Service<'auth/completeResetPassword', Actor> = async (deps, actor, input) => {
  const { db } = deps;
  const now = deps.now();
  const tokenHash = hashToken(input.token);
  // Look before hashing, so invalid tokens cost no argon2 work; the update below decides for real.
  if (!(await resetTokenUsable(db, tokenHash, now))) throw invalidLink();
  const passwordHash = await hashPassword(input.password, deps.config.passwordHashing);
  const userId = await db.transaction().execute(async (trx) => {
    const consumed = await consumeResetToken(trx, tokenHash, now);
    if (!consumed) throw invalidLink();
    // A link sent before the user was moved to single sign-on sets no password.
    const owner = await findUserById(trx, consumed.userId);
    if (owner?.identityProviderId != null) throw invalidLink();
    await setPassword(trx, consumed.userId, passwordHash, now);
    await revokeUserSessions(trx, consumed.userId, now);
    const user = await findUserById(trx, consumed.userId);
    if (user) await clearLoginFailures(trx, user.emailNormalised);
    await audit(trx, deps, actor, {
      action: 'auth.password.reset',
      entityType: 'user',
      entityId: consumed.userId,
      who: { userId: consumed.userId, display: user ? toUser(user).name : null },
    });
    return consumed.userId;
  });
  // Every session of the user ended: so do their open consoles.
  liveOf(deps).accessChanged(userId);
  return { ok: true };
};

/**
 * Where a user who signs in with an identity provider starts: the provider's authorization URL (null
 * for a password user, and for an unknown username, so the answer does not tell whether an account
 * exists). The browser gets a random cookie binding the sign-in to it (see sso/flow.ts). A provider that
 * cannot be reached is a 503 with words for /auth/login, and a line in the log.
 */
export async function getIdentityProviderAuthUrl(
  deps: AppDeps,
  _actor: Actor,
  input: In<'auth/getIdentityProviderAuthUrl'>,
  site: Site,
): Promise<{ answer: MethodOut<'auth', 'getIdentityProviderAuthUrl'>; browserToken: string | null }> {
  const user = await findUserByEmail(deps.db, input.username);
  if (!user?.identityProviderId) return { answer: { authUrl: null }, browserToken: null };
  const idp = await findIdentityProvider(deps.db, user.identityProviderId);
  if (!idp) return { answer: { authUrl: null }, browserToken: null };
  const origin = linkOrigin(deps, site) ?? site.requestOrigin;
  const { authUrl, browserToken } = await beginSso(deps, idp, {
    origin,
    loginHint: user.email,
    returnUrl: input.returnUrl,
  });
  return { answer: { authUrl }, browserToken };
}

export { addressLimits, sendPasswordLink };
