import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The language a member of the public chose on the online sign-up page (docs/decisions/languages.md,
 * "The sign-up page's choice"):
 * - `patient_sign_ups.language`: 'en' or 'cy' when the visitor chose one (the switch, `?lang=`); null
 *   when they did not, and on every staff-entered sign-up. The sign-up's codes are written in it, and the
 *   patient it becomes takes it as `patients.language` (0052's column, same check).
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`alter table patient_sign_ups add column language text check (language in ('en', 'cy'))`).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table patient_sign_ups drop column language').execute(db);
}
