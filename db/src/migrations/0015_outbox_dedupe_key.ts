import { type Kysely, sql } from 'kysely';

/**
 * The outbox's jobs (message_outbox, webhook_outbox) get a dedupe key: a job enqueued twice with the
 * same key (a retried request, two processes reacting to one change) is stored once. Null for jobs
 * that may repeat.
 */

const UP = [
  'alter table message_outbox add column dedupe_key text',
  'create unique index message_outbox_dedupe_idx on message_outbox (dedupe_key) where dedupe_key is not null',
  'alter table webhook_outbox add column dedupe_key text',
  'create unique index webhook_outbox_dedupe_idx on webhook_outbox (dedupe_key) where dedupe_key is not null',
];

const DOWN = [
  'drop index webhook_outbox_dedupe_idx',
  'alter table webhook_outbox drop column dedupe_key',
  'drop index message_outbox_dedupe_idx',
  'alter table message_outbox drop column dedupe_key',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
