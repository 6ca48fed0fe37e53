import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * QR-code orders (docs/decisions/orders.md "QR-code orders"): `qr_signing_keys` holds a business's
 * key for the HMAC its pharmacy system signs bag QR codes with, sealed (secrets/secret-box.ts) under
 * the context `qr_signing_keys.key:<business id>`. One per business; a new key replaces the old.
 */

const UP = [
  `create table qr_signing_keys (
    business_id text primary key references businesses (id) on delete cascade,
    key_sealed text not null,
    created bigint not null,
    created_by text not null
  )`,
];

const DOWN = ['drop table qr_signing_keys'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
