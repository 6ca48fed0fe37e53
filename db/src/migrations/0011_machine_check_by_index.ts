import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The statement-level machine check of temperature readings (0008) looks up the batch's machines with
 * index probes, whatever the planner guesses. It chose to read the whole machines table and hash it
 * for both of its queries (the transition table's few hundred readings looked like enough rows to),
 * twice per readings batch: nothing with a thousand machines, but with ten thousand it was most of
 * PostgreSQL's work at 1,000 batches a second (perf: hash joins and heap scans on top; the hub's
 * statement 30–40% cheaper with index probes, docs/PERFORMANCE.md). The settings hold only while the
 * function runs.
 */

const UP = [
  'alter function temperature_readings_machine_check() set enable_seqscan = off',
  'alter function temperature_readings_machine_check() set enable_hashjoin = off',
  'alter function temperature_readings_machine_check() set enable_mergejoin = off',
];

const DOWN = ['alter function temperature_readings_machine_check() reset all'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
