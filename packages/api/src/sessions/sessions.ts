import { AppError } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';
import type { Actor, AuthPort, Principal, Reach } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { liveOf } from '../live/live.ts';
import { refusePending } from './pending.ts';
import { authMessages, authPolicy } from './policy.ts';
import {
  completeSessionSetup,
  type Db,
  findSessionPrincipal,
  findSessionRow,
  insertSession,
  isUserDisabled,
  type LiveSessionRow,
  listLiveSessionsOfUser,
  type ReachRow,
  recordSignIn,
  revokeSessionById,
  revokeSessionByTokenHash,
  revokeSessionsOfUser,
  revokeSessionsOfUserExcept,
  roleNamesOf,
  touchSession,
} from './sessions-repository.ts';

export { sessionStepOf, setSessionChallenge, takeSessionChallenge } from './sessions-repository.ts';

/** A session limited to setting up a second factor, now that it has one: a full sign-in from here. */
export async function completeSetupSession(db: Db, id: string, now: number, method: string): Promise<boolean> {
  return completeSessionSetup(
    db,
    id,
    now,
    { absoluteMs: authPolicy.sessionAbsoluteMs, idleMs: authPolicy.sessionIdleMs },
    method,
  );
}

import { cookieToken, hashToken, newToken } from './tokens.ts';

/** A stored session as the auth code needs it. */
export type SessionRecord = { id: string; userId: string; created: number; expiresAt: number; idleExpiresAt: number };

/** How a session starts: signed in fully, or waiting for a second factor, or limited to setting one up. */
export type SessionStart = { pending?: 'second_factor' | 'setup' | null; authMethods?: string[] | null };

/**
 * Starts a session: a new random token, only its hash stored. Returns the token for the cookie. A
 * session waiting for its second factor lasts minutes, not hours (authPolicy.secondFactorStepMs).
 */
export async function createSession(
  db: Db,
  userId: string,
  now: number,
  meta: { ip: string | null; userAgent: string | null },
  start: SessionStart = {},
): Promise<{ token: string; session: SessionRecord }> {
  const token = newToken();
  const lifetime =
    start.pending === 'second_factor'
      ? authPolicy.secondFactorStepMs
      : start.pending === 'setup'
        ? authPolicy.sessionIdleMs
        : authPolicy.sessionAbsoluteMs;
  const session: SessionRecord = {
    id: Bun.randomUUIDv7(),
    userId,
    created: now,
    expiresAt: now + lifetime,
    idleExpiresAt: Math.min(now + authPolicy.sessionIdleMs, now + lifetime),
  };
  await insertSession(db, {
    ...session,
    tokenHash: hashToken(token),
    ip: meta.ip,
    userAgent: meta.userAgent,
    pending: start.pending ?? null,
    authMethods: start.authMethods ?? null,
  });
  return { token, session };
}

/**
 * A sign-in's session (a password or single sign-on): a new token every time, and the session of any
 * token the browser still holds ends here, its user's live connections told.
 */
export async function replaceSession(
  deps: AppDeps,
  actor: Actor,
  userId: string,
  previousToken: string | null,
  now: number,
  start: SessionStart = {},
): Promise<{ token: string; session: SessionRecord }> {
  const replaced = previousToken ? await revokeSessionByToken(deps.db, previousToken, now) : null;
  if (replaced) liveOf(deps).accessChanged(replaced.userId);
  // Waiting for the second factor is not yet a sign-in (the inactive-accounts job measures from these).
  if (start.pending !== 'second_factor') await recordSignIn(deps.db, userId, now);
  return createSession(deps.db, userId, now, { ip: actor.origin.ip, userAgent: actor.origin.userAgent }, start);
}

/** Whether a user's account is disabled (not used for the global setting's days): it signs in no way. */
export async function accountDisabled(db: Db, userId: string): Promise<boolean> {
  return isUserDisabled(db, userId);
}

/** The sessions of a user that still work, newest first. */
export async function liveSessionsOf(db: Db, userId: string, now: number): Promise<LiveSessionRow[]> {
  return listLiveSessionsOfUser(db, userId, now);
}

/** Ends one session by id; answers its user when it was live. The caller tells the live hub. */
export async function revokeSession(db: Db, id: string, now: number): Promise<{ userId: string } | null> {
  return (await revokeSessionById(db, id, now)) ?? null;
}

/** Ends every live session of a user but `keepId` (null: all of them); answers how many ended. */
export async function revokeOtherSessions(db: Db, userId: string, keepId: string | null, now: number) {
  return revokeSessionsOfUserExcept(db, userId, keepId, now);
}

/** The token a request carries: `Authorization: Bearer` (the cli) first, else the session cookie. */
export function tokenOf(request: Request): string | null {
  const authorization = request.headers.get('authorization');
  const bearer = authorization ? /^Bearer\s+([A-Za-z0-9_-]{20,200})$/i.exec(authorization.trim())?.[1] : undefined;
  if (bearer) return bearer;
  return cookieToken(request, authPolicy.sessionCookie);
}

/** Revokes the session of a token (logout, a new login over an old cookie). Returns its user, if any. */
export async function revokeSessionByToken(db: Db, token: string, now: number): Promise<{ userId: string } | null> {
  const row = await revokeSessionByTokenHash(db, hashToken(token), now);
  return row ?? null;
}

/** Ends every session of a user (password set, account change). */
export async function revokeUserSessions(db: Db, userId: string, now: number): Promise<void> {
  await revokeSessionsOfUser(db, userId, now);
}

export async function findSession(db: Db, id: string): Promise<SessionRecord | undefined> {
  return findSessionRow(db, id);
}

/**
 * The scopes a user's roles give: 'support' for a Support role, 'developer' for a Developer role,
 * 'pharmacy' for any Business or Group role (the console lets those users in to what they reach).
 */
export async function scopesOf(db: Db, userId: string): Promise<string[]> {
  return scopesOfRoles(await roleNamesOf(db, userId));
}

function scopesOfRoles(roleNames: readonly string[]): string[] {
  const names = new Set(roleNames);
  return [
    ...(names.has('Support') ? ['support'] : []),
    ...(names.has('Developer') ? ['developer'] : []),
    ...(names.has('Business') || names.has('Group') ? ['pharmacy'] : []),
  ];
}

/** The businesses and groups a principal reaches, from the session lookup's rows. */
export function reachOf(rows: ReachRow[] | string | null): Pick<Principal, 'businesses' | 'groups'> {
  const list: ReachRow[] = typeof rows === 'string' ? JSON.parse(rows) : (rows ?? []);
  const businesses = new Map<string, Reach>();
  const groups = new Map<string, Reach>();
  for (const [kind, id, admin] of list) (kind === 'business' ? businesses : groups).set(id, { admin });
  return { businesses, groups };
}

export const displayNameOf = (u: { givenName: string; familyName: string; email: string }): string =>
  `${u.givenName} ${u.familyName}`.trim() || u.email;

/**
 * The real AuthPort: the session of the bearer token or cookie. No token or an unknown one: nobody.
 * An expired or revoked session: 401 'Your session has timed out…' (rpcArea counts it as nobody on
 * public methods, so a stale cookie never stops the user logging in again).
 */
export function createSessionAuth(db: () => Kysely<Database>): AuthPort {
  return {
    async principalOf(request, { now, touch = true, allowPending }): Promise<Principal | null> {
      const token = tokenOf(request);
      if (!token) return null;
      const row = await findSessionPrincipal(db(), hashToken(token));
      if (!row) return null;
      if (row.revokedAt !== null || row.disabledAt !== null || now >= row.expiresAt || now >= row.idleExpiresAt) {
        throw new AppError('UNAUTHENTICATED', authMessages.sessionTimedOut);
      }
      if (touch && now - row.lastSeen >= authPolicy.sessionTouchAfterMs) {
        await touchSession(db(), row.sessionId, now, Math.min(now + authPolicy.sessionIdleMs, row.expiresAt));
      }
      return refusePending(
        {
          userId: row.userId,
          sessionId: row.sessionId,
          email: row.email,
          displayName: displayNameOf(row),
          scopes: scopesOfRoles(row.roleNames?.split(',') ?? []),
          ...reachOf(row.reach),
          ...(row.pending ? { pending: row.pending } : {}),
        },
        allowPending,
      );
    },
  };
}
