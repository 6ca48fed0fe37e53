import type { Address, Business } from '@medlocker/core';
import { type Database, executePrepared } from '@medlocker/db';
import { type Selectable, sql } from 'kysely';
import type { ByName, ByNameQuery, Db, OrganisationPatch } from './organisation-repository.ts';
import {
  addressOf,
  archivedOf,
  byNameConditions,
  holdsRoleOn,
  logoOf,
  newOrganisationColumns,
  organisationColumns,
} from './organisation-repository.ts';

function toBusiness(row: Selectable<Database['businesses']>): Business {
  return {
    id: row.id,
    name: row.name,
    // Core's Business has a string email; rows made before the form required one have none.
    email: row.email ?? '',
    address: addressOf(row),
    groupId: row.group_id,
    keyholdersMobileNumbers: row.keyholders_mobile_numbers,
    notificationEmails: row.notification_emails,
    archived: archivedOf(row),
    logo: logoOf(row),
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

/** `like` treats % and _ as wildcards: a filter typed by a person means them literally. */
export const likePrefix = (text: string): string => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A case-insensitive name prefix as SQL. `like 'abc%'` alone becomes an index range only when the
 * database collation is exactly "C"; under C.UTF-8 or en_GB PostgreSQL walks the ordered name index
 * filtering row by row (bench/businesses: ~150 ms on 100,000 rows). So the prefix is also given as a
 * range: when the collation orders by code point (C, POSIX, C.UTF-8), in the collation's own order,
 * which the (lower(name), id) indexes take as their Index Cond while giving rows in page order;
 * otherwise byte-wise (`~>=~ 'abc' and ~<~ 'abd'`), what the text_pattern_ops index serves under any
 * collation. The `like` keeps the answer exact whatever the ranges do.
 */
export function prefixMatch(text: string, codePointCollation = false) {
  const lower = text.toLowerCase();
  const like = likePrefix(text);
  const last = lower.charCodeAt(lower.length - 1);
  // The first string after every string starting with `lower`, in code point (and UTF-8 byte) order;
  // a trailing surrogate is left to the `like` alone.
  if (last >= 0xd800 && last <= 0xdfff) return sql<boolean>`lower(name) like ${like}`;
  const upper = `${lower.slice(0, -1)}${String.fromCharCode(last + 1)}`;
  const bytewise = sql<boolean>`lower(name) ~>=~ ${lower} and lower(name) ~<~ ${upper} and lower(name) like ${like}`;
  // In code point order the plain range is the byte-wise one: given both, the planner may pick a
  // bitmap of the pattern index and a sort over the ordered walk (measured: 23 ms against 1 ms).
  return codePointCollation
    ? sql<boolean>`lower(name) >= ${lower} and lower(name) < ${upper} and lower(name) like ${like}`
    : bytewise;
}

const codePointCollations = new WeakMap<object, Promise<boolean>>();

/** True when the database's collation orders text by code point, so a prefix is one plain range. */
export function hasCodePointCollation(db: Db): Promise<boolean> {
  let known = codePointCollations.get(db);
  if (!known) {
    known = sql<{ c: string }>`select datcollate as c from pg_database where datname = current_database()`
      .execute(db)
      .then((r) => /^(C|POSIX|C\.UTF-?8)$/i.test(r.rows[0]?.c ?? ''))
      .catch(() => false);
    codePointCollations.set(db, known);
  }
  return known;
}

export type BusinessQuery = ByNameQuery & {
  /** A group's businesses; null for the businesses in no group. */
  groupId?: string | null;
  /** Only businesses this user holds a Business role on, or a Group role on their group. */
  accessibleTo?: string;
};

/** Businesses in (lower(name), id) order, strictly after the cursor, `limit + 1` of them (byNameConditions). */
export async function listBusinessesByName(db: Db, q: BusinessQuery): Promise<ByName<Business>[]> {
  let query = db.selectFrom('businesses').selectAll().select(sql<string>`lower(name)`.as('name_key'));
  for (const condition of byNameConditions('businesses', q)) query = query.where(condition);
  if (q.groupId !== undefined) {
    query = q.groupId === null ? query.where('group_id', 'is', null) : query.where('group_id', '=', q.groupId);
  }
  if (q.accessibleTo !== undefined) {
    const userId = q.accessibleTo;
    query = query.where((eb) =>
      holdsRoleOn(userId, [
        { type: 'business', id: eb.ref('businesses.id') },
        { type: 'group', id: eb.ref('businesses.group_id') },
      ]),
    );
  }
  const ordered = query
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(q.limit + 1);
  // Without a text filter the statement is one of a few fixed shapes (the lists' hot path: bench/rpc),
  // so on PostgreSQL it is parsed and planned once per connection; a filter's best plan depends on its
  // text (trigram index or ordered walk), so filtered lists are planned at each call.
  const rows = q.filter?.trim() ? await ordered.execute() : await executePrepared(db, 'list_businesses', ordered);
  return rows.map((row) => ({ item: toBusiness(row), key: [row.name_key, row.id] }));
}

export async function findBusiness(db: Db, id: string, options: { lock?: boolean } = {}) {
  let q = db.selectFrom('businesses').selectAll().where('id', '=', id);
  if (options.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && toBusiness(row);
}

/** What a business form sets. */
export type BusinessFields = Pick<Business, 'name' | 'email' | 'notificationEmails' | 'keyholdersMobileNumbers'> & {
  address: Address;
};

/** A new business in no group, not archived, without a logo. */
export async function insertBusiness(db: Db, b: BusinessFields & { id: string; now: number }): Promise<Business> {
  const row = await db
    .insertInto('businesses')
    .values({
      ...newOrganisationColumns(b),
      group_id: null,
      notification_emails: b.notificationEmails,
      keyholders_mobile_numbers: b.keyholdersMobileNumbers,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toBusiness(row);
}

export type BusinessPatch = OrganisationPatch &
  Partial<Pick<Business, 'groupId' | 'notificationEmails' | 'keyholdersMobileNumbers'>>;

/** Changes a business and answers it as it now is. */
export async function patchBusiness(db: Db, id: string, patch: BusinessPatch): Promise<Business> {
  const { groupId, notificationEmails, keyholdersMobileNumbers, ...shared } = patch;
  const row = await db
    .updateTable('businesses')
    .set({
      ...organisationColumns(shared),
      ...(groupId !== undefined ? { group_id: groupId } : {}),
      ...(notificationEmails !== undefined ? { notification_emails: notificationEmails } : {}),
      ...(keyholdersMobileNumbers !== undefined ? { keyholders_mobile_numbers: keyholdersMobileNumbers } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toBusiness(row);
}

/** True when the user holds a Business role on the business or a Group role on its group. */
export async function hasRoleOn(db: Db, userId: string, business: Pick<Business, 'id' | 'groupId'>): Promise<boolean> {
  const row = await db
    .selectFrom('user_roles')
    .select('id')
    .where('user_id', '=', userId)
    .where((r) =>
      r.or([
        r.and([r('resource_type', '=', 'business'), r('resource_id', '=', business.id)]),
        ...(business.groupId
          ? [r.and([r('resource_type', '=', 'group'), r('resource_id', '=', business.groupId)])]
          : []),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** The businesses and groups showing a logo, locked until the transaction ends. */
export async function lockLogoUsers(db: Db, logoPath: string) {
  const of = (table: 'businesses' | 'groups') =>
    db
      .selectFrom(table)
      .select(['id', 'name', 'archived_at'])
      .where('logo_path', '=', logoPath)
      .forUpdate()
      .execute()
      .then((rows) => rows.map((r) => ({ table, id: r.id, name: r.name, archived: r.archived_at !== null })));
  return [...(await of('businesses')), ...(await of('groups'))];
}

/** Takes the logo off a business or group. */
export async function clearLogo(db: Db, table: 'businesses' | 'groups', id: string, now: number): Promise<void> {
  await db
    .updateTable(table)
    .set({ logo_path: null, logo_background_color: null, updated: now })
    .where('id', '=', id)
    .execute();
}

/**
 * The group a business is linked to, as linking needs it (its name and whether it is archived); with
 * `lock`, held until the transaction ends so the group cannot be archived meanwhile.
 */
export async function findGroupToLink(db: Db, id: string, options: { lock?: boolean } = {}) {
  let q = db.selectFrom('groups').select(['id', 'name', 'archived_at']).where('id', '=', id);
  if (options.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && { id: row.id, name: row.name, archived: row.archived_at !== null };
}
