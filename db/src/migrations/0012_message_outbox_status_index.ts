import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * messages.listOutbox with a status filter (support looking for a business's failed messages): newest
 * first by id within one business and status. Without it the list walks message_outbox_business_idx
 * through every message the business ever sent to find the few that failed. The sending worker's
 * status changes already rewrite the index entries of message_outbox_due_idx, which holds the status too.
 */

const UP = ['create index message_outbox_business_status_idx on message_outbox (business_id, status, id)'];

const DOWN = ['drop index message_outbox_business_status_idx'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
