import { AppError } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { AuthPort, Principal } from '../rpc/context.ts';
import { authMessages, authPolicy } from './policy.ts';
import { hashToken, newToken } from './tokens.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A stored session as the auth code needs it. */
export type SessionRecord = { id: string; userId: string; created: number; expiresAt: number; idleExpiresAt: number };

/** Starts a session: a new random token, only its hash stored. Returns the token for the cookie. */
export async function createSession(
  db: Db,
  userId: string,
  now: number,
  meta: { ip: string | null; userAgent: string | null },
): Promise<{ token: string; session: SessionRecord }> {
  const token = newToken();
  const session: SessionRecord = {
    id: Bun.randomUUIDv7(),
    userId,
    created: now,
    expiresAt: now + authPolicy.sessionAbsoluteMs,
    idleExpiresAt: Math.min(now + authPolicy.sessionIdleMs, now + authPolicy.sessionAbsoluteMs),
  };
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      token_hash: hashToken(token),
      user_id: userId,
      created: now,
      expires_at: session.expiresAt,
      idle_expires_at: session.idleExpiresAt,
      last_seen: now,
      ip: meta.ip,
      user_agent: meta.userAgent,
      revoked_at: null,
    })
    .execute();
  return { token, session };
}

/** The token a request carries: `Authorization: Bearer` (the cli) first, else the session cookie. */
export function tokenOf(request: Request): string | null {
  const authorization = request.headers.get('authorization');
  const bearer = authorization ? /^Bearer\s+([A-Za-z0-9_-]{20,200})$/i.exec(authorization.trim())?.[1] : undefined;
  if (bearer) return bearer;
  const cookie = request.headers.get('cookie');
  if (!cookie) return null;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === authPolicy.sessionCookie) {
      const value = decodeURIComponent(part.slice(eq + 1).trim());
      return value === '' ? null : value;
    }
  }
  return null;
}

/** Revokes the session of a token (logout, a new login over an old cookie). Returns its user, if any. */
export async function revokeSessionByToken(db: Db, token: string, now: number): Promise<{ userId: string } | null> {
  const row = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .returning(['user_id'])
    .executeTakeFirst();
  return row ? { userId: row.user_id } : null;
}

/** Ends every session of a user (password set, account change). */
export async function revokeUserSessions(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function findSession(db: Db, id: string): Promise<SessionRecord | undefined> {
  const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return row
    ? {
        id: row.id,
        userId: row.user_id,
        created: row.created,
        expiresAt: row.expires_at,
        idleExpiresAt: row.idle_expires_at,
      }
    : undefined;
}

/** The scopes a user's roles give: 'support' for a Support role, 'developer' for a Developer role. */
export async function scopesOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .select('name')
    .where('user_id', '=', userId)
    .where('name', 'in', ['Support', 'Developer'])
    .execute();
  return scopesOfRoles(rows.map((r) => r.name));
}

function scopesOfRoles(roleNames: readonly string[]): string[] {
  const names = new Set(roleNames);
  return [...(names.has('Support') ? ['support'] : []), ...(names.has('Developer') ? ['developer'] : [])];
}

export const displayNameOf = (u: { given_name: string; family_name: string; email: string }): string =>
  `${u.given_name} ${u.family_name}`.trim() || u.email;

/**
 * The real AuthPort: the session of the bearer token or cookie. No token or an unknown one: nobody.
 * An expired or revoked session: 401 'Your session has timed out…' (rpcArea counts it as nobody on
 * public methods, so a stale cookie never stops the user logging in again).
 */
export function createSessionAuth(db: () => Kysely<Database>): AuthPort {
  return {
    async principalOf(request, { now, touch = true }): Promise<Principal | null> {
      const token = tokenOf(request);
      if (!token) return null;
      const row = await db()
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'sessions.id as session_id',
          'sessions.expires_at',
          'sessions.idle_expires_at',
          'sessions.last_seen',
          'sessions.revoked_at',
          'users.id as user_id',
          'users.email',
          'users.given_name',
          'users.family_name',
          // The scopes' roles in the same round trip: this runs on every call.
          (eb) =>
            eb
              .selectFrom('user_roles')
              .select(sql<string | null>`string_agg(distinct user_roles.name, ',')`.as('names'))
              .whereRef('user_roles.user_id', '=', 'users.id')
              .where('user_roles.name', 'in', ['Support', 'Developer'])
              .as('scope_roles'),
        ])
        .where('sessions.token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (!row) return null;
      if (row.revoked_at !== null || now >= row.expires_at || now >= row.idle_expires_at) {
        throw new AppError('UNAUTHENTICATED', authMessages.sessionTimedOut);
      }
      if (touch && now - row.last_seen >= authPolicy.sessionTouchAfterMs) {
        await db()
          .updateTable('sessions')
          .set({ last_seen: now, idle_expires_at: Math.min(now + authPolicy.sessionIdleMs, row.expires_at) })
          .where('id', '=', row.session_id)
          .execute();
      }
      return {
        userId: row.user_id,
        sessionId: row.session_id,
        email: row.email,
        displayName: displayNameOf(row),
        scopes: scopesOfRoles(row.scope_roles?.split(',') ?? []),
      };
    },
  };
}
