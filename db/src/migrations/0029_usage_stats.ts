import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Usage stats (reports/getUsageStats): what the dashboards read on every load, for one
 * business or the whole estate, without reading every order or message.
 * - `orders_loaded_machine_idx`: the orders in lockers now, by machine (occupancy). Partial, so the
 *   estate's occupancy reads only the orders that are loaded, never the collected millions.
 * - `orders_collected_idx`: the estate's collections of the last days (usage analyses); a business's
 *   use orders_business_collected_idx (0005).
 * - `patients_id_birth_idx`: the collecting patients' dates of birth, read index-only (one lookup per
 *   patient of the period; through the table's heap those lookups were most of the estate's call).
 * - `message_outbox_business_pending_idx`: a business's messages waiting to be sent; the estate's use
 *   message_outbox_due_idx (status, next_attempt_at) from 0005.
 */

const UP = [
  `create index orders_loaded_machine_idx on orders (business_id, machine_id) where status = 'loaded'`,
  `create index orders_collected_idx on orders (collected) where collected is not null`,
  `create index patients_id_birth_idx on patients (id) include (date_of_birth)`,
  `create index message_outbox_business_pending_idx on message_outbox (business_id, created) where status = 'pending'`,
];

const DOWN = [
  'drop index message_outbox_business_pending_idx',
  'drop index patients_id_birth_idx',
  'drop index orders_collected_idx',
  'drop index orders_loaded_machine_idx',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
