import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Patients' "contains" search keeps each column's trigrams apart: 0053's trigram index on the joined
 * text (full name, email, display id, mobile) becomes one GIN index over the four columns, still partial
 * (`where not search_pending`) and of the same name. In the joined text a word is a word whichever column
 * it came from, so an email's digits shared their trigrams with every display id (test-range NHS numbers
 * all start 999) and a search for `.99999@example` rechecked 2,000 rows of 200,000; per column it
 * rechecks six. The list ORs `column ilike pattern` per column (packages/api/src/lists/contains-repository.ts,
 * SEARCH_COLUMNS), each arm one scan of this index (docs/decisions/database.md, list search).
 */

const JOINED = `(full_name || E'\\n' || coalesce(email, '') || E'\\n' || display_id || E'\\n' || coalesce(mobile_number, ''))`;
const COLUMNS = 'full_name gin_trgm_ops, email gin_trgm_ops, display_id gin_trgm_ops, mobile_number gin_trgm_ops';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
async function replaceIndex(db: Kysely<any>, keys: string): Promise<void> {
  const trgm = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (trgm.rows.length === 0) return;
  await sql.raw('drop index if exists patients_search_trgm_idx').execute(db);
  await sql
    .raw(`create index patients_search_trgm_idx on patients using gin (${keys}) where not search_pending`)
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function up(db: Kysely<any>): Promise<void> {
  await replaceIndex(db, COLUMNS);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  await replaceIndex(db, `${JOINED} gin_trgm_ops`);
}
