import type { Address, ArchivedStamp, Logo } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import {
  type Expression,
  expressionBuilder,
  type Kysely,
  type Selectable,
  type SqlBool,
  sql,
  type Transaction,
} from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import type { Cursor } from '../../lists/paging.ts';

/*
 * What the businesses and groups tables have alike: a name, an email, an address, a logo and an
 * archive mark. Both repositories read and write those columns through here, so a business and a group
 * are archived, given a logo and listed by name the same way.
 */

export type Db = Kysely<Database> | Transaction<Database>;

/** The tables of businesses and groups. */
export type OrganisationTable = 'businesses' | 'groups';

type SharedRow = Pick<
  Selectable<Database['businesses']>,
  | 'address_line1'
  | 'address_line2'
  | 'address_line3'
  | 'post_town'
  | 'postcode'
  | 'logo_path'
  | 'logo_background_color'
  | 'archived_at'
  | 'archived_by_id'
  | 'archived_by_display'
>;

export const addressOf = (row: SharedRow): Address => ({
  line1: row.address_line1,
  line2: row.address_line2,
  line3: row.address_line3,
  postTown: row.post_town,
  postcode: row.postcode,
});

export const archivedOf = (
  row: Pick<SharedRow, 'archived_at' | 'archived_by_id' | 'archived_by_display'>,
): ArchivedStamp | null =>
  row.archived_at === null
    ? null
    : { at: Number(row.archived_at), userId: row.archived_by_id, userDisplayName: row.archived_by_display };

export const logoOf = (row: Pick<SharedRow, 'logo_path' | 'logo_background_color'>): Logo | null =>
  row.logo_path ? { path: row.logo_path, backgroundColor: row.logo_background_color ?? '#ffffff' } : null;

/** A change to what businesses and groups share; a field left out stays as it is. */
export type OrganisationPatch = {
  name?: string;
  email?: string | null;
  address?: Address;
  logo?: Logo | null;
  archived?: ArchivedStamp | null;
  updated: number;
};

/** The columns of a patch. */
export function organisationColumns(patch: OrganisationPatch) {
  const { name, email, address, logo, archived, updated } = patch;
  return {
    ...(name !== undefined ? { name } : {}),
    ...(email !== undefined ? { email } : {}),
    ...(address
      ? {
          address_line1: address.line1,
          address_line2: address.line2,
          address_line3: address.line3,
          post_town: address.postTown,
          postcode: address.postcode,
        }
      : {}),
    ...(logo !== undefined
      ? { logo_path: logo?.path ?? null, logo_background_color: logo?.backgroundColor ?? null }
      : {}),
    ...(archived !== undefined
      ? {
          archived_at: archived?.at ?? null,
          archived_by_id: archived?.userId ?? null,
          archived_by_display: archived?.userDisplayName ?? null,
        }
      : {}),
    updated,
  };
}

/** The columns of a new business or group: not archived, no logo. */
export function newOrganisationColumns(o: {
  id: string;
  name: string;
  email: string | null;
  address: Address;
  now: number;
}) {
  return {
    id: o.id,
    name: o.name,
    email: o.email,
    address_line1: o.address.line1,
    address_line2: o.address.line2,
    address_line3: o.address.line3,
    post_town: o.address.postTown,
    postcode: o.address.postcode,
    logo_path: null,
    logo_background_color: null,
    archived_at: null,
    archived_by_id: null,
    archived_by_display: null,
    created: o.now,
    updated: o.now,
  };
}

/** A list by name: 'active', 'archived' or 'any'; a name filter; strictly after the cursor. */
export type ByNameQuery = {
  archived: 'active' | 'archived' | 'any';
  filter?: string;
  after?: Cursor;
  limit: number;
};

/**
 * The conditions of a list in (lower(name), id) order, strictly after the cursor. The order ends with
 * the unique id, so a row inserted while someone pages lands either before the cursor (never shown,
 * never shifting a page) or after it (shown once): no repeats, no skips. The name filter matches
 * anywhere in the name, in any case (lists/contains-repository.ts; the trigram index of migration 0013).
 */
export function byNameConditions(table: OrganisationTable, q: ByNameQuery): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (q.archived === 'active') conditions.push(sql<boolean>`archived_at is null`);
  if (q.archived === 'archived') conditions.push(sql<boolean>`archived_at is not null`);
  const filter = q.filter?.trim();
  if (filter) conditions.push(contains(table, filter));
  if (q.after) {
    const [name, id] = q.after as [string, string];
    // A row comparison: one index range scan on (lower(name), id) from the cursor on.
    conditions.push(sql<boolean>`(lower(name), id) > (${name}, ${id})`);
  }
  return conditions;
}

/** A business or group as a list of them gives it: with its cursor key. */
export type ByName<T> = { item: T; key: Cursor };

/**
 * Whether the user holds a role on one of `resources`: each a resource type and the listed row's
 * column naming that resource (a business is reached through its own role or through its group's).
 */
export function holdsRoleOn(
  userId: string,
  resources: readonly { type: 'business' | 'group'; id: Expression<string | null> }[],
): Expression<SqlBool> {
  const eb = expressionBuilder<Database>();
  return eb.exists(
    eb
      .selectFrom('user_roles')
      .select('user_roles.id')
      .where('user_roles.user_id', '=', userId)
      .where((r) =>
        r.or(
          resources.map(({ type, id }) =>
            r.and([r('user_roles.resource_type', '=', type), r('user_roles.resource_id', '=', id)]),
          ),
        ),
      ),
  );
}
