import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The texted code an order's link last spent, kept until that code would have expired: a right code
 * sent twice at once (two taps, two tabs) finds it already spent, and is answered "already used"
 * instead of being counted as a wrong try.
 */

const UP = ['alter table patient_verifications add column spent_code_hash text'];

const DOWN = ['alter table patient_verifications drop column spent_code_hash'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
