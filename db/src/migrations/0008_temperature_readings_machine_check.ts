import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The foreign key temperature_readings (business_id, machine_id) → machines becomes triggers with the
 * same meaning, as 0007 did for patients. A row-level foreign key checks (and locks) the machine once
 * per reading: the machine hub writes readings in batches from many lockers, and that check was two
 * thirds of the batch statement's time (docs/PERFORMANCE.md, "Machine hub"). The insert/update check
 * runs once per statement over its distinct machines, locks them FOR KEY SHARE as the foreign key
 * would, and refuses a machine that does not exist; a machine that still has readings cannot be
 * deleted or change its key (rare, so checked per row, and only when the key changes). The error is
 * the foreign key's: SQLSTATE 23503 naming temperature_readings_business_id_machine_id_fkey.
 */

const UP = [
  'alter table temperature_readings drop constraint temperature_readings_business_id_machine_id_fkey',
  `create function temperature_readings_machine_check() returns trigger language plpgsql as $$
  declare
    missing record;
  begin
    perform 1 from machines m
      where (m.business_id, m.id) in (select distinct n.business_id, n.machine_id from new_readings n)
      for key share of m;
    select n.business_id, n.machine_id into missing
      from (select distinct business_id, machine_id from new_readings) n
      where not exists (select 1 from machines m where m.business_id = n.business_id and m.id = n.machine_id)
      limit 1;
    if found then
      raise foreign_key_violation using
        message = 'insert or update on table "temperature_readings" violates foreign key constraint "temperature_readings_business_id_machine_id_fkey"',
        detail = format('Key (business_id, machine_id)=(%s, %s) is not present in table "machines".',
          missing.business_id, missing.machine_id),
        constraint = 'temperature_readings_business_id_machine_id_fkey', table = 'temperature_readings';
    end if;
    return null;
  end $$`,
  `create trigger temperature_readings_machine_insert after insert on temperature_readings
    referencing new table as new_readings for each statement execute function temperature_readings_machine_check()`,
  `create trigger temperature_readings_machine_update after update on temperature_readings
    referencing new table as new_readings for each statement execute function temperature_readings_machine_check()`,
  `create function machines_keep_temperature_readings() returns trigger language plpgsql as $$
  begin
    if exists (select 1 from temperature_readings r where r.business_id = old.business_id and r.machine_id = old.id) then
      raise foreign_key_violation using
        message = 'update or delete on table "machines" violates foreign key constraint "temperature_readings_business_id_machine_id_fkey" on table "temperature_readings"',
        detail = format('Key (business_id, id)=(%s, %s) is still referenced from table "temperature_readings".',
          old.business_id, old.id),
        constraint = 'temperature_readings_business_id_machine_id_fkey', table = 'machines';
    end if;
    return null;
  end $$`,
  `create trigger machines_keep_temperature_readings_delete after delete on machines
    for each row execute function machines_keep_temperature_readings()`,
  // Machines are updated all the time (last seen, temperature average); only a key change is checked.
  `create trigger machines_keep_temperature_readings_update after update of business_id, id on machines
    for each row when (old.business_id is distinct from new.business_id or old.id is distinct from new.id)
    execute function machines_keep_temperature_readings()`,
];

const DOWN = [
  'drop trigger machines_keep_temperature_readings_update on machines',
  'drop trigger machines_keep_temperature_readings_delete on machines',
  'drop function machines_keep_temperature_readings()',
  'drop trigger temperature_readings_machine_update on temperature_readings',
  'drop trigger temperature_readings_machine_insert on temperature_readings',
  'drop function temperature_readings_machine_check()',
  `alter table temperature_readings add constraint temperature_readings_business_id_machine_id_fkey
    foreign key (business_id, machine_id) references machines (business_id, id) on delete restrict`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
