import type { Database } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { oneTimeRowUsable, spendOneTimeRow } from '../../one-time/repository.ts';
import { type Bucket, returnBucketToken, takeBucketToken } from '../../rate-limits/repository.ts';
import { authPolicy } from '../../sessions/policy.ts';
import { type ProviderRecord, toProviderRecord } from '../sso/index.ts';
import { countTry } from './tries-repository.ts';

export type { ProviderRecord };

type Db = Kysely<Database> | Transaction<Database>;

// --- login failures: counted per normalised username, whether the account exists or not ----------

/**
 * Reserves one sign-in attempt on a username before its password is checked, in a single statement so
 * that concurrent attempts are counted one by one (argon2 takes tens of milliseconds: checking first and
 * counting after let 24 concurrent wrong passwords all be checked). The reservation counts as a failure
 * until the right password clears it. A count older than the window, or one whose lockout has ended,
 * starts again at 1; the attempt that reaches the threshold locks the username for the lockout time and
 * is still checked; the attempts after it are refused unchecked while the lock lasts.
 * Returns whether this attempt may check the password, and the lock's end if the username is locked.
 */
export async function reserveLoginAttempt(
  db: Db,
  username: string,
  now: number,
): Promise<{ allowed: boolean; lockedUntil: number | null }> {
  const { lockoutThreshold, lockoutWindowMs, lockoutMs } = authPolicy;
  const tries = countTry('login_failures', now, {
    max: lockoutThreshold,
    windowMs: lockoutWindowMs,
    lockMs: lockoutMs,
  });
  const row = await db
    .insertInto('login_failures')
    .values({ username_normalised: username, ...tries.first })
    .onConflict((oc) => oc.column('username_normalised').doUpdateSet(tries.next))
    .returning(['failures', 'locked_until'])
    .executeTakeFirstOrThrow();
  return { allowed: row.failures <= lockoutThreshold, lockedUntil: row.locked_until };
}

export async function clearLoginFailures(db: Db, username: string): Promise<void> {
  await db.deleteFrom('login_failures').where('username_normalised', '=', username).execute();
}

// --- failed sign-ins per client address: a token bucket in the database, shared by every process ----

export type AddressBucket = Bucket;

/** Takes a token from the address's bucket before a password is checked: null, or the seconds to wait. */
export const reserveAddressAttempt = (db: Db, addressKey: string, bucket: AddressBucket, now: number) =>
  takeBucketToken(db, 'login_address_failures', addressKey, bucket, now);

/** Gives back a token taken by {@link reserveAddressAttempt}: the attempt did not fail (right password). */
export const releaseAddressAttempt = (db: Db, addressKey: string, bucket: AddressBucket) =>
  returnBucketToken(db, 'login_address_failures', addressKey, bucket);

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
  const row = await spendOneTimeRow(db, 'password_reset_tokens', { token_hash: tokenHash }, now);
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

export async function findIdentityProvider(db: Db, id: string): Promise<ProviderRecord | undefined> {
  const row = await db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toProviderRecord(row);
}

/** Every provider, oldest first: "single sign-on by default" picks among them the one that fits. */
export async function identityProvidersOldestFirst(db: Db): Promise<ProviderRecord[]> {
  return (await db.selectFrom('identity_providers').selectAll().orderBy('created').orderBy('id').execute()).map(
    toProviderRecord,
  );
}

/** The ids of a group's businesses (a group's provider serves them too). */
export async function businessIdsOfGroup(db: Db, groupId: string): Promise<string[]> {
  return (await db.selectFrom('businesses').select('id').where('group_id', '=', groupId).execute()).map((b) => b.id);
}

/** A user's roles as resources: what a business's or group's identity provider is checked against. */
export async function userRoleResources(
  db: Db,
  userId: string,
): Promise<{ resourceType: string | null; resourceId: string | null }[]> {
  const rows = await db
    .selectFrom('user_roles')
    .select(['resource_type', 'resource_id'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => ({ resourceType: r.resource_type, resourceId: r.resource_id }));
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
export const resetTokenUsable = (db: Db, tokenHash: string, now: number): Promise<boolean> =>
  oneTimeRowUsable(db, 'password_reset_tokens', { token_hash: tokenHash }, now);

/** A user's roles: their names and what they are on. */
export async function userRoleRefs(
  db: Db,
  userId: string,
): Promise<{ name: string; resourceType: 'business' | 'group' | null; resourceId: string | null }[]> {
  const rows = await db
    .selectFrom('user_roles')
    .select(['name', 'resource_type', 'resource_id'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => ({ name: r.name, resourceType: r.resource_type, resourceId: r.resource_id }));
}
