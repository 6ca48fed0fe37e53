import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Fewer indexes on patients, so a 100,000-row import writes each row into three indexes instead of nine
 * (docs/PERFORMANCE.md measures each one; docs/decisions/database.md has the reasoning):
 * - patients_business_idx duplicated unique (business_id, id);
 * - the display id's prefix-search index is folded into its unique key, rebuilt with text_pattern_ops
 *   (equality, the upsert's conflict target and `like 'prefix%'` all use it);
 * - the full-name, family-name, mobile and email prefix indexes go: patients.list walks the business's
 *   patients in id order and filters them, stopping at a page (its filter ORs all five fields, so no
 *   single one of these indexes could serve it anyway).
 *
 * And the foreign key patients.business_id → businesses becomes two statement-level triggers with the
 * same meaning: a row-level foreign key checks (and locks) the business once per patient, 1024 times
 * per import batch, a fifth of the batch's cost; these check each statement's distinct businesses
 * once, lock them FOR KEY SHARE as the foreign key would, and refuse removing a business that still has
 * patients. The error is the foreign key's: SQLSTATE 23503 naming patients_business_id_fkey.
 */

const UP = [
  'drop index patients_business_idx',
  'drop index patients_business_display_id_idx',
  'drop index patients_business_full_name_idx',
  'drop index patients_business_family_name_idx',
  'drop index patients_business_mobile_idx',
  'drop index patients_business_email_idx',
  'drop index patients_business_display_id_key',
  `create unique index patients_business_display_id_key on patients (business_id, display_id text_pattern_ops)
    where deleted_at is null`,

  'alter table patients drop constraint patients_business_id_fkey',
  `create function patients_business_check() returns trigger language plpgsql as $$
  declare
    missing text;
  begin
    perform 1 from businesses b where b.id in (select distinct n.business_id from new_patients n) for key share of b;
    select n.business_id into missing from (select distinct business_id from new_patients) n
      where not exists (select 1 from businesses b where b.id = n.business_id) limit 1;
    if found then
      raise foreign_key_violation using
        message = 'insert or update on table "patients" violates foreign key constraint "patients_business_id_fkey"',
        detail = format('Key (business_id)=(%s) is not present in table "businesses".', missing),
        constraint = 'patients_business_id_fkey', table = 'patients';
    end if;
    return null;
  end $$`,
  `create trigger patients_business_insert after insert on patients
    referencing new table as new_patients for each statement execute function patients_business_check()`,
  `create trigger patients_business_update after update on patients
    referencing new table as new_patients for each statement execute function patients_business_check()`,
  // A business that still has patients cannot go, nor change its id (updates see both transition
  // tables, deletes only the old one: each branch reads only what its trigger has).
  `create function businesses_keep_patients() returns trigger language plpgsql as $$
  declare
    kept text;
  begin
    if TG_OP = 'DELETE' then
      select o.id into kept from old_businesses o where exists (select 1 from patients p where p.business_id = o.id)
        limit 1;
    else
      select o.id into kept from old_businesses o
        where not exists (select 1 from new_businesses n where n.id = o.id)
          and exists (select 1 from patients p where p.business_id = o.id)
        limit 1;
    end if;
    if found then
      raise foreign_key_violation using
        message = 'update or delete on table "businesses" violates foreign key constraint "patients_business_id_fkey" on table "patients"',
        detail = format('Key (id)=(%s) is still referenced from table "patients".', kept),
        constraint = 'patients_business_id_fkey', table = 'businesses';
    end if;
    return null;
  end $$`,
  `create trigger businesses_keep_patients_update after update on businesses
    referencing old table as old_businesses new table as new_businesses
    for each statement execute function businesses_keep_patients()`,
  `create trigger businesses_keep_patients_delete after delete on businesses
    referencing old table as old_businesses for each statement execute function businesses_keep_patients()`,
];

const DOWN = [
  'drop trigger businesses_keep_patients_delete on businesses',
  'drop trigger businesses_keep_patients_update on businesses',
  'drop function businesses_keep_patients()',
  'drop trigger patients_business_update on patients',
  'drop trigger patients_business_insert on patients',
  'drop function patients_business_check()',
  `alter table patients add constraint patients_business_id_fkey foreign key (business_id) references businesses (id)
    on delete restrict`,
  'drop index patients_business_display_id_key',
  'create unique index patients_business_display_id_key on patients (business_id, display_id) where deleted_at is null',
  'create index patients_business_idx on patients (business_id, id) where deleted_at is null',
  'create index patients_business_display_id_idx on patients (business_id, display_id text_pattern_ops)',
  'create index patients_business_full_name_idx on patients (business_id, lower(full_name) text_pattern_ops)',
  'create index patients_business_family_name_idx on patients (business_id, lower(family_name) text_pattern_ops)',
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
