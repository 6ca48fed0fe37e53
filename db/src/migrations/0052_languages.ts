import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Languages patients read (docs/ARCHITECTURE.md, Languages):
 * - `patients.language`: the language the patient chose on the patient page ('en' or 'cy'); null until
 *   they choose, and then the business's default (its feature settings' `patientLanguage`) applies.
 * - `business_sms_templates.language`: each language has its own eight templates; rows before this
 *   are English. The primary key takes the language in.
 */

const UP = [
  `alter table patients add column language text check (language in ('en', 'cy'))`,
  `alter table business_sms_templates add column language text not null default 'en'
     check (language in ('en', 'cy'))`,
  'alter table business_sms_templates drop constraint business_sms_templates_pkey',
  'alter table business_sms_templates add primary key (business_id, key, language)',
];

const DOWN = [
  `delete from business_sms_templates where language <> 'en'`,
  'alter table business_sms_templates drop constraint business_sms_templates_pkey',
  'alter table business_sms_templates add primary key (business_id, key)',
  'alter table business_sms_templates drop column language',
  'alter table patients drop column language',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
