import type { IdentityProviderRef, Role, User } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import type { Cursor } from '../../lists/paging.ts';
import { resourceName } from '../../rows/resource-name.ts';

type Db = Kysely<Database> | Transaction<Database>;
type UserRow = Selectable<Database['users']>;
type RoleRow = Selectable<Database['user_roles']>;

/** Usernames are emails compared case-insensitively: trimmed and lower-cased. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** A user's account as the services see it: core's User fields and what signing in checks. */
export type Account = {
  id: string;
  email: string;
  emailNormalised: string;
  givenName: string;
  familyName: string;
  passwordHash: string | null;
  /** The user must set a new password before signing in. */
  forceReset: boolean;
  /** Set when the user signs in through this single sign-on provider (and never with a password). */
  identityProviderId: string | null;
  frontEnd: 'support' | 'pharmacy';
  created: number;
  updated: number;
};

const toAccount = (row: UserRow): Account => ({
  id: row.id,
  email: row.email,
  emailNormalised: row.email_normalised,
  givenName: row.given_name,
  familyName: row.family_name,
  passwordHash: row.password_hash,
  forceReset: row.force_reset,
  identityProviderId: row.identity_provider_id,
  frontEnd: row.front_end,
  created: row.created,
  updated: row.updated,
});

const maybeAccount = (row: UserRow | undefined): Account | undefined => row && toAccount(row);

/** An account as core's User; `accessLevels` are the caller's to give (of one role, or of all). */
export function toUser(account: Account, accessLevels: string[] = []): User {
  return {
    id: account.id,
    email: account.email,
    givenName: account.givenName,
    familyName: account.familyName,
    name: `${account.givenName} ${account.familyName}`.trim() || account.email,
    created: account.created,
    updated: account.updated,
    accessLevels,
  };
}

export async function findUserById(db: Db, id: string): Promise<Account | undefined> {
  return maybeAccount(await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst());
}

export async function findUserByEmail(db: Db, email: string): Promise<Account | undefined> {
  return maybeAccount(
    await db.selectFrom('users').selectAll().where('email_normalised', '=', normaliseEmail(email)).executeTakeFirst(),
  );
}

export type NewUser = {
  email: string;
  givenName: string;
  familyName: string;
  frontEnd: 'support' | 'pharmacy';
  identityProviderId: string | null;
  now: number;
};

/**
 * Creates an account with no password that must set one (force reset) through an emailed link.
 * Returns undefined when the email already has an account (a concurrent creation included).
 */
export async function insertUser(db: Db, user: NewUser): Promise<Account | undefined> {
  const row = await db
    .insertInto('users')
    .values({
      id: Bun.randomUUIDv7(),
      email: user.email.trim(),
      email_normalised: normaliseEmail(user.email),
      given_name: user.givenName.trim(),
      family_name: user.familyName.trim(),
      password_hash: null,
      force_reset: true,
      identity_provider_id: user.identityProviderId,
      front_end: user.frontEnd,
      created: user.now,
      updated: user.now,
    })
    .onConflict((oc) => oc.column('email_normalised').doNothing())
    .returningAll()
    .executeTakeFirst();
  return maybeAccount(row);
}

export async function updateUserNames(
  db: Db,
  id: string,
  names: { givenName: string; familyName: string },
  now: number,
): Promise<Account | undefined> {
  return maybeAccount(
    await db
      .updateTable('users')
      .set({ given_name: names.givenName.trim(), family_name: names.familyName.trim(), updated: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst(),
  );
}

export type UsersByRoleQuery = {
  roleName: RoleRow['name'];
  roleResource?: string | null;
  filterText?: string;
  after?: Cursor;
  limit: number;
};

/**
 * Users holding a role (on one resource, or any), in email order, strictly after the cursor
 * (the last email seen: emails are unique, so the order is total). With each, the access levels of
 * the matching roles. Fetches `limit + 1` rows so the caller can tell whether there is a next page.
 */
export async function listUsersByRole(
  db: Db,
  q: UsersByRoleQuery,
): Promise<{ account: Account; accessLevels: string[] }[]> {
  const resource = q.roleResource ?? null;
  let query = db
    .selectFrom('users')
    .selectAll('users')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles')
          .select('user_roles.id')
          .whereRef('user_roles.user_id', '=', 'users.id')
          .where('user_roles.name', '=', q.roleName)
          .$if(resource !== null, (sq) => sq.where('user_roles.resource_id', '=', resource)),
      ),
    );
  const filter = q.filterText?.trim();
  if (filter) {
    // Anywhere in the email or in "given family", in any case.
    query = query.where(contains('users', filter));
  }
  if (q.after) query = query.where('users.email_normalised', '>', String(q.after[0]));
  const rows = await query
    .orderBy('users.email_normalised')
    .limit(q.limit + 1)
    .execute();
  if (rows.length === 0) return [];
  const roles = await db
    .selectFrom('user_roles')
    .select(['user_id', 'access_levels'])
    .where(
      'user_id',
      'in',
      rows.map((r) => r.id),
    )
    .where('name', '=', q.roleName)
    .$if(resource !== null, (sq) => sq.where('resource_id', '=', resource))
    .execute();
  const levels = new Map<string, Set<string>>();
  for (const r of roles) {
    const set = levels.get(r.user_id) ?? new Set<string>();
    for (const level of r.access_levels) set.add(level);
    levels.set(r.user_id, set);
  }
  return rows.map((row) => ({ account: toAccount(row), accessLevels: [...(levels.get(row.id) ?? [])].sort() }));
}

/** A user's roles, with the name of the business or group each is on (null when it cannot be found). */
export async function rolesOfUser(db: Db, userId: string): Promise<Role[]> {
  const rows = await db
    .selectFrom('user_roles')
    .select([
      'user_roles.name',
      'user_roles.resource_id',
      'user_roles.resource_type',
      'user_roles.access_levels',
      'user_roles.description',
      resourceName('user_roles').as('resource_name'),
    ])
    .where('user_roles.user_id', '=', userId)
    .orderBy('user_roles.created')
    .orderBy('user_roles.id')
    .execute();
  return rows.map((r) => ({
    name: r.name,
    resource: r.resource_id,
    resourceType: r.resource_type,
    resourceName: r.resource_name,
    accessLevels: r.access_levels,
    description: r.description,
  }));
}

export async function identityProviderOfUser(db: Db, account: Account): Promise<IdentityProviderRef | null> {
  if (!account.identityProviderId) return null;
  const idp = await db
    .selectFrom('identity_providers')
    .select(['id', 'name'])
    .where('id', '=', account.identityProviderId)
    .executeTakeFirst();
  return idp ?? null;
}
