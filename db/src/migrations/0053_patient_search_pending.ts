import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Patients an import wrote are indexed for "contains" search by the job runner, not in the import's
 * statements (docs/PERFORMANCE.md, issue 40; docs/decisions/database.md, list search):
 * - `patients.search_pending`: true on a row an import inserted or changed, until the job
 *   `patients.searchIndex` sets it false; every other writer leaves it false.
 * - 0013's trigram index on the patients' search text now holds only rows not pending (a partial index:
 *   a pending row costs the import no trigrams), and `patients_search_pending_idx` finds the pending
 *   rows of a business, which the list's search scans beside the index, so it stays exact.
 * The expression is 0013's, character for character (the list's SQL must match it).
 */

const EXPRESSION = `(full_name || E'\\n' || coalesce(email, '') || E'\\n' || display_id || E'\\n' || coalesce(mobile_number, ''))`;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table patients add column search_pending boolean not null default false').execute(db);
  await sql
    .raw('create index patients_search_pending_idx on patients (business_id, id) where search_pending')
    .execute(db);
  const trgm = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (trgm.rows.length === 0) return;
  await sql.raw('drop index if exists patients_search_trgm_idx').execute(db);
  await sql
    .raw(
      `create index patients_search_trgm_idx on patients using gin (${EXPRESSION} gin_trgm_ops) where not search_pending`,
    )
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  const trgm = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (trgm.rows.length > 0) {
    await sql.raw('drop index if exists patients_search_trgm_idx').execute(db);
    await sql
      .raw(`create index patients_search_trgm_idx on patients using gin (${EXPRESSION} gin_trgm_ops)`)
      .execute(db);
  }
  await sql.raw('drop index patients_search_pending_idx').execute(db);
  await sql.raw('alter table patients drop column search_pending').execute(db);
}
