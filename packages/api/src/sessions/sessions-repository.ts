import type { Database } from '@medlocker/db';
import { type Kysely, sql, type Transaction } from 'kysely';
import { camelRow } from '../rows/camel-row.ts';

/** Every query on sessions (and the roles a session's principal carries) lives here. */

export type Db = Kysely<Database> | Transaction<Database>;

export type SessionRow = {
  id: string;
  tokenHash: string;
  userId: string;
  created: number;
  expiresAt: number;
  idleExpiresAt: number;
  ip: string | null;
  userAgent: string | null;
  pending?: 'second_factor' | 'setup' | null;
  /** How it signed in (RFC 8176 amr values). */
  authMethods?: string[] | null;
};

export async function insertSession(db: Db, s: SessionRow): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: s.id,
      token_hash: s.tokenHash,
      user_id: s.userId,
      created: s.created,
      expires_at: s.expiresAt,
      idle_expires_at: s.idleExpiresAt,
      last_seen: s.created,
      ip: s.ip,
      user_agent: s.userAgent,
      revoked_at: null,
      pending: s.pending ?? null,
      auth_methods: s.authMethods ? sql`${sql.val(s.authMethods)}::text[]` : null,
    })
    .execute();
}

/** Revokes the live session of a token hash; answers its user, if there was one. */
export function revokeSessionByTokenHash(
  db: Db,
  tokenHash: string,
  now: number,
): Promise<{ userId: string } | undefined> {
  return revokeOne(db, 'token_hash', tokenHash, now);
}

/** Revokes the live session whose `key` column holds `value`; answers its user, if there was one. */
async function revokeOne(
  db: Db,
  key: 'id' | 'token_hash',
  value: string,
  now: number,
): Promise<{ userId: string } | undefined> {
  const row = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where(key, '=', value)
    .where('revoked_at', 'is', null)
    .returning(['user_id'])
    .executeTakeFirst();
  return row && { userId: row.user_id };
}

export async function revokeSessionsOfUser(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function findSessionRow(
  db: Db,
  id: string,
): Promise<{ id: string; userId: string; created: number; expiresAt: number; idleExpiresAt: number } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'created', 'expires_at', 'idle_expires_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && camelRow(row);
}

/** The names of a user's Support and Developer roles, and whether they hold any Business or Group role. */
export async function roleNamesOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .select('name')
    .where('user_id', '=', userId)
    .where('name', 'in', ['Support', 'Developer', 'Business', 'Group'])
    .execute();
  return rows.map((r) => r.name);
}

/**
 * One reach of a session's user: `['business' | 'group', id, admin]`. A Business role reaches its
 * business; a Group role its group and every business of the group (businesses.group_id), as the
 * accessible-businesses lists have it (not the groups nested under it). Admin is SPEC §6's Admin
 * access level, given to the group's businesses by an Admin group role.
 */
export type ReachRow = ['business' | 'group', string, boolean];

/**
 * The session of a token hash with its user, the names of the user's roles and everything their
 * Business and Group roles reach: one round trip, because it runs on every call. Read fresh each
 * time, so a role added or removed takes effect at the user's next call.
 */
export type SessionPrincipalRecord = {
  sessionId: string;
  expiresAt: number;
  idleExpiresAt: number;
  lastSeen: number;
  revokedAt: number | null;
  pending: 'second_factor' | 'setup' | null;
  userId: string;
  /** Set while the account is disabled: its sessions are refused even if one was missed when it was. */
  disabledAt: number | null;
  email: string;
  givenName: string;
  familyName: string;
  /** The user's role names, comma-separated; null when none. */
  roleNames: string | null;
  reach: ReachRow[] | string | null;
};

export async function findSessionPrincipal(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<SessionPrincipalRecord | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as session_id',
      'sessions.expires_at',
      'sessions.idle_expires_at',
      'sessions.last_seen',
      'sessions.revoked_at',
      'sessions.pending',
      'users.id as user_id',
      'users.disabled_at',
      'users.email',
      'users.given_name',
      'users.family_name',
      (eb) =>
        eb
          .selectFrom('user_roles')
          .select(sql<string | null>`string_agg(distinct user_roles.name, ',')`.as('names'))
          .whereRef('user_roles.user_id', '=', 'users.id')
          .as('role_names'),
      sql<ReachRow[] | string | null>`(
        select json_agg(json_build_array(x.kind, x.id, x.admin)) from (
          select kind, id, bool_or(admin) as admin from (
            select r.resource_type as kind, r.resource_id as id, 'Admin' = any(r.access_levels) as admin
              from user_roles r
             where r.user_id = users.id
               and r.name in ('Business', 'Group')
               and r.resource_type in ('business', 'group')
               and r.resource_id is not null
            union all
            select 'business', b.id, 'Admin' = any(r.access_levels)
              from user_roles r join businesses b on b.group_id = r.resource_id
             where r.user_id = users.id and r.name = 'Group' and r.resource_type = 'group'
          ) y group by kind, id
        ) x
      )`.as('reach'),
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && { ...camelRow(row), pending: row.pending as SessionPrincipalRecord['pending'] };
}

/** Counts a call as activity: moves the idle expiry on (never past the absolute one). */
export async function touchSession(db: Kysely<Database>, id: string, now: number, idleExpiresAt: number) {
  await db
    .updateTable('sessions')
    .set({ last_seen: now, idle_expires_at: idleExpiresAt })
    .where('id', '=', id)
    .execute();
}

/** A live session as its owner's account page lists it. */
export type LiveSessionRow = {
  id: string;
  userId: string;
  created: number;
  lastSeen: number;
  ip: string | null;
  userAgent: string | null;
};

/** The sessions of a user that still work (not revoked, not past either expiry), newest first. */
export async function listLiveSessionsOfUser(db: Db, userId: string, now: number): Promise<LiveSessionRow[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'created', 'last_seen', 'ip', 'user_agent'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('idle_expires_at', '>', now)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    created: r.created,
    lastSeen: r.last_seen,
    ip: r.ip,
    userAgent: r.user_agent,
  }));
}

/** Revokes one live session by its id; answers its user, or nothing when it was not live. */
export function revokeSessionById(db: Db, id: string, now: number): Promise<{ userId: string } | undefined> {
  return revokeOne(db, 'id', id, now);
}

/** Revokes every live session of a user but one (null: all); answers how many ended. */
export async function revokeSessionsOfUserExcept(
  db: Db,
  userId: string,
  keepId: string | null,
  now: number,
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('idle_expires_at', '>', now);
  if (keepId !== null) query = query.where('id', '<>', keepId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A sign-in's mark on the account: the time the inactive-accounts job measures from. */
export async function recordSignIn(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('users').set({ last_sign_in: now }).where('id', '=', userId).execute();
}

/** Whether the account is disabled (it signs in no way while it is). */
export async function isUserDisabled(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst();
  return row?.disabled_at != null;
}

/** What a session has proved so far: pending (null: signed in fully) and how it signed in. */
export async function sessionStepOf(
  db: Db,
  id: string,
): Promise<{ pending: 'second_factor' | 'setup' | null; authMethods: string[] } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select(['pending', 'auth_methods'])
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && { pending: row.pending as 'second_factor' | 'setup' | null, authMethods: row.auth_methods ?? [] };
}

/** Keeps a WebAuthn challenge on the session until `expiresAt` (a new one replaces any earlier). */
export async function setSessionChallenge(db: Db, id: string, challenge: string, expiresAt: number): Promise<void> {
  await db.updateTable('sessions').set({ challenge, challenge_expires_at: expiresAt }).where('id', '=', id).execute();
}

/** Takes the session's WebAuthn challenge (it is answered once): null when there is none or it expired. */
export async function takeSessionChallenge(db: Db, id: string, now: number): Promise<string | null> {
  const row = await db
    .selectFrom('sessions')
    .select(['challenge', 'challenge_expires_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row?.challenge) return null;
  const taken = await db
    .updateTable('sessions')
    .set({ challenge: null, challenge_expires_at: null })
    .where('id', '=', id)
    .where('challenge', '=', row.challenge)
    .returning('id')
    .executeTakeFirst();
  return taken && (row.challenge_expires_at ?? 0) > now ? row.challenge : null;
}

/**
 * A session limited to setting up a second factor becomes a full one once it has: its lifetimes start
 * again as a sign-in's, and how it signed in gains the new factor.
 */
export async function completeSessionSetup(
  db: Db,
  id: string,
  now: number,
  lifetimes: { absoluteMs: number; idleMs: number },
  method: string,
): Promise<boolean> {
  const row = await db
    .updateTable('sessions')
    .set({
      pending: null,
      expires_at: now + lifetimes.absoluteMs,
      idle_expires_at: now + lifetimes.idleMs,
      auth_methods: sql`array_append(coalesce(auth_methods, '{}'::text[]), ${method}::text)`,
    })
    .where('id', '=', id)
    .where('pending', '=', 'setup')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
