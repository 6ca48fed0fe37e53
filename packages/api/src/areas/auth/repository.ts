import type { Database } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { authPolicy } from '../../auth/policy.ts';

type Db = Kysely<Database> | Transaction<Database>;

// --- login failures: counted per normalised username, whether the account exists or not ----------

/** When the username is locked out until, if it is now. */
export async function lockedUntil(db: Db, username: string, now: number): Promise<number | null> {
  const row = await db
    .selectFrom('login_failures')
    .select('locked_until')
    .where('username_normalised', '=', username)
    .executeTakeFirst();
  return row?.locked_until != null && row.locked_until > now ? row.locked_until : null;
}

/**
 * Counts one failure in a single statement (concurrent failures all count). A count older than the
 * window, or one whose lockout has ended, starts again at 1. Reaching the threshold locks the
 * username for the lockout time. Returns the lock's end when this failure locked it.
 */
export async function recordLoginFailure(db: Db, username: string, now: number): Promise<number | null> {
  const { lockoutThreshold, lockoutWindowMs, lockoutMs } = authPolicy;
  const stale = sql<boolean>`(login_failures.first_failure_at <= ${now - lockoutWindowMs} or (login_failures.locked_until is not null and login_failures.locked_until <= ${now}))`;
  const row = await db
    .insertInto('login_failures')
    .values({
      username_normalised: username,
      failures: 1,
      first_failure_at: now,
      locked_until: lockoutThreshold <= 1 ? now + lockoutMs : null,
    })
    .onConflict((oc) =>
      oc.column('username_normalised').doUpdateSet({
        failures: sql`case when ${stale} then 1 else login_failures.failures + 1 end`,
        first_failure_at: sql`case when ${stale} then ${now} else login_failures.first_failure_at end`,
        locked_until: sql`case when (case when ${stale} then 1 else login_failures.failures + 1 end) >= ${lockoutThreshold} then ${now + lockoutMs}::bigint else null end`,
      }),
    )
    .returning(['locked_until'])
    .executeTakeFirstOrThrow();
  return row.locked_until;
}

export async function clearLoginFailures(db: Db, username: string): Promise<void> {
  await db.deleteFrom('login_failures').where('username_normalised', '=', username).execute();
}

// --- password reset tokens ---------------------------------------------------------------------------

/** Stores a new reset token's hash and voids the user's earlier unused ones. */
export async function insertResetToken(
  db: Db,
  userId: string,
  tokenHash: string,
  now: number,
  lifetimeMs: number,
): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('password_reset_tokens')
    .values({
      id: Bun.randomUUIDv7(),
      token_hash: tokenHash,
      user_id: userId,
      created: now,
      expires_at: now + lifetimeMs,
      used_at: null,
    })
    .execute();
}

/**
 * Uses a reset token: marks it used if it is unused and unexpired, in one statement so two clicks
 * cannot both succeed. Returns its user, or undefined for an unknown, used or expired token.
 */
export async function consumeResetToken(
  db: Db,
  tokenHash: string,
  now: number,
): Promise<{ userId: string } | undefined> {
  const row = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row ? { userId: row.user_id } : undefined;
}

export async function setPassword(db: Db, userId: string, passwordHash: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, force_reset: false, updated: now })
    .where('id', '=', userId)
    .execute();
}

// --- roles --------------------------------------------------------------------------------------------

export type RoleToStore = {
  name: 'Support' | 'Business' | 'Group' | 'Developer';
  resourceType: 'business' | 'group' | null;
  resourceId: string | null;
  accessLevels: string[];
  description: string;
};

/** Adds a role, or updates its access levels and description when the user already holds it. */
export async function upsertRole(db: Db, userId: string, role: RoleToStore, now: number): Promise<void> {
  await db
    .insertInto('user_roles')
    .values({
      id: Bun.randomUUIDv7(),
      user_id: userId,
      name: role.name,
      resource_type: role.resourceType,
      resource_id: role.resourceId,
      access_levels: sql`${sql.val(role.accessLevels)}::text[]`,
      description: role.description,
      created: now,
    })
    .onConflict((oc) =>
      oc.expression(sql`user_id, name, coalesce(resource_id, '')`).doUpdateSet({
        access_levels: sql`excluded.access_levels`,
        description: sql`excluded.description`,
      }),
    )
    .execute();
}

export async function deleteRole(db: Db, userId: string, name: string, resourceId: string | null): Promise<boolean> {
  const rows = await db
    .deleteFrom('user_roles')
    .where('user_id', '=', userId)
    .where('name', '=', name as Selectable<Database['user_roles']>['name'])
    .where(sql<string>`coalesce(resource_id, '')`, '=', resourceId ?? '')
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** The name of a business or group, or undefined when there is none with that id. */
export async function resourceName(db: Db, type: 'business' | 'group', id: string): Promise<string | undefined> {
  const row =
    type === 'business'
      ? await db.selectFrom('businesses').select('name').where('id', '=', id).executeTakeFirst()
      : await db.selectFrom('groups').select('name').where('id', '=', id).executeTakeFirst();
  return row?.name;
}

// --- identity providers -----------------------------------------------------------------------------

export type IdentityProviderRow = Selectable<Database['identity_providers']>;

export async function findIdentityProvider(db: Db, id: string): Promise<IdentityProviderRow | undefined> {
  return db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The provider used when support adds a user with "single sign-on by default": the oldest one. */
export async function defaultIdentityProvider(db: Db): Promise<IdentityProviderRow | undefined> {
  return db.selectFrom('identity_providers').selectAll().orderBy('created').orderBy('id').limit(1).executeTakeFirst();
}

export async function setUserIdentityProvider(
  db: Db,
  userId: string,
  idpId: string | null,
  now: number,
): Promise<void> {
  await db.updateTable('users').set({ identity_provider_id: idpId, updated: now }).where('id', '=', userId).execute();
}

/** True when a password link was made for this user after `since`: a mailbox is not to be flooded. */
export async function linkSentSince(db: Db, userId: string, since: number): Promise<boolean> {
  const recent = await db
    .selectFrom('password_reset_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .where('created', '>', since)
    .executeTakeFirst();
  return recent !== undefined;
}

/** Whether a reset token is unused and unexpired: a look only, consumeResetToken decides for real. */
export async function resetTokenUsable(db: Db, tokenHash: string, now: number): Promise<boolean> {
  const usable = await db
    .selectFrom('password_reset_tokens')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return usable !== undefined;
}
