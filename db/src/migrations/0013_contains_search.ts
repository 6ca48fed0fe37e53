import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * "Contains" search on every list: one pg_trgm GIN index per searched table on the exact
 * expression the list searches (packages/api/src/areas/contains-repository.ts, SEARCH_TEXT), which serves
 * `expression ilike '%text%'` for any text of three characters or more. pg_trgm ships with PostgreSQL
 * (a trusted extension since 13, so the database owner may create it) and with PGlite, whose createDb
 * loads it. Where it is not available the indexes are skipped: the lists still search, by scanning.
 */

const INDEXES = [
  ['businesses_name_trgm_idx', 'businesses', 'name'],
  ['groups_name_trgm_idx', 'groups', 'name'],
  ['machines_name_trgm_idx', 'machines', 'name'],
  ['users_search_trgm_idx', 'users', `(email_normalised || E'\\n' || given_name || ' ' || family_name)`],
  [
    'patients_search_trgm_idx',
    'patients',
    `(full_name || E'\\n' || coalesce(email, '') || E'\\n' || display_id || E'\\n' || coalesce(mobile_number, ''))`,
  ],
  [
    'patient_sign_ups_search_trgm_idx',
    'patient_sign_ups',
    `(first_name || ' ' || last_name || E'\\n' || coalesce(email, '') || E'\\n' || coalesce(mobile_number, ''))`,
  ],
  [
    'bags_search_trgm_idx',
    'bags',
    `(barcode || E'\\n' || coalesce(reference, '') || E'\\n' || coalesce(location, ''))`,
  ],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  const available = await sql`select 1 from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (available.rows.length === 0) return;
  await sql.raw('create extension if not exists pg_trgm').execute(db);
  for (const [name, table, expression] of INDEXES) {
    await sql.raw(`create index ${name} on ${table} using gin (${expression} gin_trgm_ops)`).execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
}
