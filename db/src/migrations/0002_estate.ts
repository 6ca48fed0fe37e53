import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Groups and businesses (pharmacies). Name search is case-insensitive by prefix: a btree on
 * lower(name) text_pattern_ops serves `lower(name) like 'abc%'` under any collation, and a second
 * btree on (lower(name), id) serves the keyset-paged list ordered by name. Substring search would need
 * pg_trgm, which PGlite only has when the extension is loaded at start-up; prefix search keeps both
 * databases on the same plain btree indexes.
 */

const UP = [
  `create table groups (
    id text primary key,
    name text not null,
    parent_id text references groups (id) on delete restrict,
    email text,
    address_line1 text,
    address_line2 text,
    address_line3 text,
    post_town text,
    postcode text,
    logo_path text,
    logo_background_color text,
    archived_at bigint,
    archived_by_id text,
    archived_by_display text,
    created bigint not null,
    updated bigint not null,
    check (parent_id is null or parent_id <> id)
  )`,
  `create index groups_name_idx on groups (lower(name), id)`,
  `create index groups_name_prefix_idx on groups (lower(name) text_pattern_ops)`,
  `create index groups_parent_idx on groups (parent_id) where parent_id is not null`,

  `create table businesses (
    id text primary key,
    name text not null,
    email text,
    address_line1 text,
    address_line2 text,
    address_line3 text,
    post_town text,
    postcode text,
    group_id text references groups (id) on delete restrict,
    -- normalised +447xxxxxxxxx
    keyholders_mobile_numbers text[] not null default '{}',
    notification_emails text[] not null default '{}',
    archived_at bigint,
    archived_by_id text,
    archived_by_display text,
    logo_path text,
    logo_background_color text,
    created bigint not null,
    updated bigint not null
  )`,
  // listBusinesses {archived, filterText}: ordered and paged by (lower(name), id), split by archived.
  `create index businesses_active_name_idx on businesses (lower(name), id) where archived_at is null`,
  `create index businesses_archived_name_idx on businesses (lower(name), id) where archived_at is not null`,
  `create index businesses_name_prefix_idx on businesses (lower(name) text_pattern_ops)`,
  // listGroupedBusinesses {groupId} and listUngroupedBusinesses
  `create index businesses_group_name_idx on businesses (group_id, lower(name), id)`,
];

const DOWN = ['drop table businesses', 'drop table groups'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
