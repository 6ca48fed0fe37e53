import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * An SMS or WhatsApp message with no word from its provider is sent again until the provider confirms
 * it or its order ends: how many sends had no answer (the next check waits twice as long), and when
 * staff were told it has not arrived (once).
 */

const UP = [
  'alter table message_outbox add column unconfirmed_sends integer not null default 0',
  'alter table message_outbox add column undelivered_alerted_at bigint',
  // A resend already recorded unconfirmed under the old rule ("only once") is one more round of the new.
  `update message_outbox set unconfirmed_sends = case provider_status when 'UNCONFIRMED_RESEND' then 2 else 1 end,
     provider_status = 'UNCONFIRMED'
   where provider_status in ('UNCONFIRMED', 'UNCONFIRMED_RESEND')`,
];

const DOWN = [
  'alter table message_outbox drop column undelivered_alerted_at',
  'alter table message_outbox drop column unconfirmed_sends',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
