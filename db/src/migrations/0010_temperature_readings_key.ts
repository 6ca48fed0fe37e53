import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * A temperature reading is identified by its machine and its time (the replay key the hub writes under);
 * the random text id beside it was never read, yet every reading carried 36 more bytes and a second
 * unique index, and the hub generated and sent one UUID per reading (10,000 a second at 10,000
 * lockers). The replay key becomes the primary key (its index is kept and renamed, not rebuilt; the
 * drop of the column is a catalogue change).
 */

const UP = [
  'alter table temperature_readings drop constraint temperature_readings_pkey',
  'alter table temperature_readings drop column id',
  `alter table temperature_readings add constraint temperature_readings_pkey
    primary key using index temperature_readings_replay_key`,
];

const DOWN = [
  'alter table temperature_readings drop constraint temperature_readings_pkey',
  `create unique index temperature_readings_replay_key on temperature_readings (business_id, machine_id, created)`,
  'alter table temperature_readings add column id text',
  'update temperature_readings set id = gen_random_uuid()::text',
  'alter table temperature_readings alter column id set not null',
  'alter table temperature_readings add primary key (id)',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
