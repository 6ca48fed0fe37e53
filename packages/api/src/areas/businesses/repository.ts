import type { Business, BusinessInfo } from '@medlocker/core';
import { type Database, executePrepared } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import type { Cursor } from '../../lists/paging.ts';

export type Db = Kysely<Database> | Transaction<Database>;
export type BusinessRow = Selectable<Database['businesses']>;

const addressOf = (
  row: Pick<BusinessRow, 'address_line1' | 'address_line2' | 'address_line3' | 'post_town' | 'postcode'>,
) => ({
  line1: row.address_line1,
  line2: row.address_line2,
  line3: row.address_line3,
  postTown: row.post_town,
  postcode: row.postcode,
});

export const archivedOf = (row: Pick<BusinessRow, 'archived_at' | 'archived_by_id' | 'archived_by_display'>) =>
  row.archived_at === null
    ? null
    : { at: Number(row.archived_at), userId: row.archived_by_id, userDisplayName: row.archived_by_display };

export function toBusinessInfo(row: BusinessRow): BusinessInfo {
  return { id: row.id, name: row.name, address: addressOf(row), archived: archivedOf(row) };
}

export function toBusiness(row: BusinessRow): Business {
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
    logo: row.logo_path ? { path: row.logo_path, backgroundColor: row.logo_background_color ?? '#ffffff' } : null,
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

export type BusinessQuery = {
  /** 'active' (default), 'archived', or 'any'. */
  archived?: 'active' | 'archived' | 'any';
  filter?: string;
  /** A group's businesses; null for the businesses in no group. */
  groupId?: string | null;
  /** Only businesses this user holds a Business role on, or a Group role on their group. */
  accessibleTo?: string;
  after?: Cursor;
  limit: number;
};

/**
 * Businesses in (lower(name), id) order, strictly after the cursor, `limit + 1` of them. The order
 * ends with the unique id, so a row inserted while someone pages lands either before the cursor
 * (never shown, never shifting a page) or after it (shown once): no repeats, no skips. The name
 * filter matches anywhere in the name, in any case (areas/contains-repository.ts; the trigram index of migration 0013).
 */
export async function listBusinessRows(db: Db, q: BusinessQuery): Promise<{ row: BusinessRow; key: Cursor }[]> {
  let query = db.selectFrom('businesses').selectAll().select(sql<string>`lower(name)`.as('name_key'));
  const archived = q.archived ?? 'active';
  if (archived === 'active') query = query.where('archived_at', 'is', null);
  if (archived === 'archived') query = query.where('archived_at', 'is not', null);
  if (q.groupId !== undefined) {
    query = q.groupId === null ? query.where('group_id', 'is', null) : query.where('group_id', '=', q.groupId);
  }
  const filter = q.filter?.trim();
  if (filter) query = query.where(contains('businesses', filter));
  if (q.accessibleTo !== undefined) {
    const userId = q.accessibleTo;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles')
          .select('user_roles.id')
          .where('user_roles.user_id', '=', userId)
          .where((r) =>
            r.or([
              r.and([
                r('user_roles.resource_type', '=', 'business'),
                r('user_roles.resource_id', '=', r.ref('businesses.id')),
              ]),
              r.and([
                r('user_roles.resource_type', '=', 'group'),
                r('user_roles.resource_id', '=', r.ref('businesses.group_id')),
              ]),
            ]),
          ),
      ),
    );
  }
  if (q.after) {
    const [name, id] = q.after as [string, string];
    // A row comparison: one index range scan on (lower(name), id) from the cursor on.
    query = query.where(sql<boolean>`(lower(name), id) > (${name}, ${id})`);
  }
  const ordered = query
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(q.limit + 1);
  // Without a text filter the statement is one of a few fixed shapes (the lists' hot path: bench/rpc),
  // so on PostgreSQL it is parsed and planned once per connection; a filter's best plan depends on its
  // text (trigram index or ordered walk), so filtered lists are planned at each call.
  const rows = filter ? await ordered.execute() : await executePrepared(db, 'list_businesses', ordered);
  // The row keeps its name_key (toBusiness reads the columns it needs): a rest copy of every row cost more.
  return rows.map((row) => ({ row, key: [row.name_key, row.id] }));
}

export async function findBusiness(db: Db, id: string, options: { lock?: boolean } = {}) {
  let q = db.selectFrom('businesses').selectAll().where('id', '=', id);
  if (options.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function insertBusiness(db: Db, row: Selectable<Database['businesses']>): Promise<BusinessRow> {
  return db.insertInto('businesses').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateBusinessRow(
  db: Db,
  id: string,
  patch: Updateable<Database['businesses']>,
): Promise<BusinessRow> {
  return db.updateTable('businesses').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** True when the user holds a Business role on the business or a Group role on its group. */
export async function hasRoleOn(db: Db, userId: string, business: BusinessRow): Promise<boolean> {
  const row = await db
    .selectFrom('user_roles')
    .select('id')
    .where('user_id', '=', userId)
    .where((r) =>
      r.or([
        r.and([r('resource_type', '=', 'business'), r('resource_id', '=', business.id)]),
        ...(business.group_id
          ? [r.and([r('resource_type', '=', 'group'), r('resource_id', '=', business.group_id)])]
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
      .then((rows) => rows.map((r) => ({ ...r, table })));
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
  return q.executeTakeFirst();
}
