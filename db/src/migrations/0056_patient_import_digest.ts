import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * A re-import that changes nothing skips the row checks and the upsert (docs/decisions/database.md,
 * "Patients imported again unchanged"):
 * - `patients.import_digest`: a digest of the row an import last sent for the patient, as it was sent
 *   (with the business's display-id rule and the import rules' version); null for rows no import wrote.
 * - A row trigger clears it whenever any other writer changes what an import writes (the display id, the
 *   name, date of birth, email, mobile, address) or deletes the patient, and does not fire for writers
 *   that leave those alone (the search job, message failures, WhatsApp opt-in): a digest that matches is
 *   a promise that the stored row is what that import made of that row.
 */

const DATA = [
  'display_id',
  'given_name',
  'family_name',
  'full_name',
  'date_of_birth',
  'email',
  'mobile_number',
  'address_line1',
  'address_line2',
  'address_line3',
  'post_town',
  'postcode',
  'deleted_at',
];
const row = (alias: string) => `(${DATA.map((c) => `${alias}.${c}`).join(', ')})`;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('alter table patients add column import_digest text').execute(db);
  await sql
    .raw(`create function patients_import_digest_cleared() returns trigger language plpgsql as $$
      begin
        new.import_digest := null;
        return new;
      end $$`)
    .execute(db);
  await sql
    .raw(`create trigger patients_import_digest_cleared before update on patients for each row
      when (old.import_digest is not null and new.import_digest is not distinct from old.import_digest
        and ${row('new')} is distinct from ${row('old')})
      execute function patients_import_digest_cleared()`)
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop trigger patients_import_digest_cleared on patients').execute(db);
  await sql.raw('drop function patients_import_digest_cleared()').execute(db);
  await sql.raw('alter table patients drop column import_digest').execute(db);
}
