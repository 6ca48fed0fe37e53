import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The expiry reminder: `expiry_reminded_for` holds the `expires_at` the patient was last
 * reminded about, so each expiry is reminded once, and an order whose expiry changes (moved, extended)
 * can be reminded again for its new one. The reminder job reads loaded orders by expiry through
 * orders_expiry_unrecorded_idx (0017), which holds exactly the loaded orders not yet expired.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column expiry_reminded_for bigint`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop column expiry_reminded_for`.execute(db);
}
