import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** Adds the schedules not stored yet, each with its first due time; stored ones are left as they are. */
export async function insertMissingSchedules(
  db: Db,
  rows: { name: string; pattern: string; next_run_at: number; updated: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('job_schedules')
    .values(rows)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** Locks these schedules' rows for the transaction, skipping those another process holds now. */
export async function lockSchedules(tx: Transaction<Database>, names: string[]) {
  const rows = await tx
    .selectFrom('job_schedules')
    .selectAll()
    .where('name', 'in', names)
    .forUpdate()
    .skipLocked()
    .execute();
  return rows.map((r) => ({
    name: r.name,
    pattern: r.pattern,
    nextRunAt: Number(r.next_run_at),
    updated: Number(r.updated),
  }));
}

export async function updateSchedule(
  tx: Db,
  name: string,
  values: { pattern?: string; next_run_at: number; last_run_at?: number; updated: number },
): Promise<void> {
  await tx.updateTable('job_schedules').set(values).where('name', '=', name).execute();
}
