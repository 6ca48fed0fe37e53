import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The demo's lockers are marked as such: the demo fleet (outside production only) reports for these and
 * no other, instead of guessing from "never paired, yet heard from". Databases seeded before this
 * migration get their demo lockers marked by that same guess, once: the seed is what made them.
 */

const UP = [
  'alter table machines add column demo boolean not null default false',
  `update machines m set demo = true
     where not m.is_test and m.last_seen is not null
       and not exists (select 1 from machine_credentials c where c.machine_id = m.id)`,
];

const DOWN = ['alter table machines drop column demo'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
