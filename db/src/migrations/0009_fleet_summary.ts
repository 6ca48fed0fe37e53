import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The dashboard's fleet summary asks, per machine of a page, for its events of the last 24 hours
 * (`created >= now - 1 day`). machine_events_machine_idx orders a machine's events by id, which is the
 * time the row was written, not the time the locker says the event happened (replays arrive late), so
 * that query would read every event the machine ever sent. This index reads only the day's.
 */

const UP = ['create index machine_events_machine_created_idx on machine_events (business_id, machine_id, created)'];

const DOWN = ['drop index machine_events_machine_created_idx'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
