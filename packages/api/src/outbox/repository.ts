import type { Database } from '@medlocker/db';
import type { Insertable, Kysely, Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** Stores outbox messages; one whose dedupe key is taken is skipped. Returns the ids stored. */
export async function insertMessageJobs(db: Db, rows: Insertable<Database['message_outbox']>[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('message_outbox')
    .values(rows)
    .onConflict((oc) => oc.column('dedupe_key').where('dedupe_key', 'is not', null).doNothing())
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}
