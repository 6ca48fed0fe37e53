import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Fewer indexes on patients, so a 100,000-row import writes each row into four indexes instead of nine
 * (docs/PERFORMANCE.md measures each one; docs/DECISIONS.md has the reasoning):
 * - patients_business_idx duplicated unique (business_id, id);
 * - the display id's prefix-search index is folded into its unique key, rebuilt with text_pattern_ops
 *   (equality, the upsert's conflict target and `like 'prefix%'` all use it);
 * - the full-name, mobile and email prefix indexes go: patients.list walks the business's patients in
 *   id order and filters them, stopping at a page. The family-name index stays for the search people
 *   type most (a surname), and for sorting by it later.
 */

const UP = [
  'drop index patients_business_idx',
  'drop index patients_business_display_id_idx',
  'drop index patients_business_full_name_idx',
  'drop index patients_business_mobile_idx',
  'drop index patients_business_email_idx',
  'drop index patients_business_display_id_key',
  `create unique index patients_business_display_id_key on patients (business_id, display_id text_pattern_ops)
    where deleted_at is null`,
];

const DOWN = [
  'drop index patients_business_display_id_key',
  'create unique index patients_business_display_id_key on patients (business_id, display_id) where deleted_at is null',
  'create index patients_business_idx on patients (business_id, id) where deleted_at is null',
  'create index patients_business_display_id_idx on patients (business_id, display_id text_pattern_ops)',
  'create index patients_business_full_name_idx on patients (business_id, lower(full_name) text_pattern_ops)',
  'create index patients_business_mobile_idx on patients (business_id, mobile_number text_pattern_ops)',
  'create index patients_business_email_idx on patients (business_id, lower(email) text_pattern_ops)',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
