import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * What orders need to behave, with the database, not the code, keeping the rules that
 * concurrency could break:
 * - one live order per barcode in a business (a second one is refused, 409);
 * - a PIN unique among the live orders of its machine: `pin` holds the PIN sealed (AES-GCM, revealable),
 *   `pin_lookup` a keyed HMAC of it that a locker's VerifyPin looks up and this index keeps unique;
 * - a machine's sequence numbers never repeat;
 * - counters handed out under a row lock (`insert ... on conflict do update ... returning`): an order's
 *   reference per business, its machine sequence per machine;
 * - every PIN tried at a machine, for the wrong-PIN limits;
 * - `expiry_recorded_at`: the expiry sweep records an order's expiry once.
 * Orders are searched by barcode, reference or patient name anywhere in the text (pg_trgm, as 0013).
 */

const LIVE = `status in ('new', 'loaded')`;
const SEARCH = `(barcode || E'\\n' || reference || E'\\n' || patient_name)`;

const UP = [
  'alter table orders add column pin_lookup text',
  'alter table orders add column expiry_recorded_at bigint',
  `create unique index orders_live_barcode_key on orders (business_id, barcode) where ${LIVE}`,
  `create unique index orders_live_machine_pin_key on orders (machine_id, pin_lookup)
     where ${LIVE} and machine_id is not null and pin_lookup is not null`,
  `create unique index orders_machine_sequence_key on orders (machine_id, machine_sequence)
     where machine_id is not null and machine_sequence is not null`,
  // the top bar's search across businesses: an order by its barcode or reference, in any case
  'create index orders_barcode_lower_idx on orders (lower(barcode))',
  'create index orders_reference_lower_idx on orders (lower(reference))',
  // the expiry sweep: loaded orders past their expiry whose expiry is not recorded yet
  `create index orders_expiry_unrecorded_idx on orders (expires_at) where status = 'loaded' and expiry_recorded_at is null`,
  `create table order_counters (
    scope text primary key,
    value bigint not null
  )`,
  `create table pin_attempts (
    id text primary key,
    business_id text not null,
    machine_id text not null,
    order_id text,
    outcome text not null check (outcome in ('ok', 'wrong', 'expired', 'paymentRequired', 'lockedOut')),
    created bigint not null
  )`,
  'create index pin_attempts_machine_idx on pin_attempts (machine_id, created)',
  'create index pin_attempts_order_idx on pin_attempts (order_id, created) where order_id is not null',
];

const DOWN = [
  'drop table pin_attempts',
  'drop table order_counters',
  'drop index orders_expiry_unrecorded_idx',
  'drop index orders_reference_lower_idx',
  'drop index orders_barcode_lower_idx',
  'drop index orders_machine_sequence_key',
  'drop index orders_live_machine_pin_key',
  'drop index orders_live_barcode_key',
  'alter table orders drop column expiry_recorded_at',
  'alter table orders drop column pin_lookup',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
  const trgm = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (trgm.rows.length > 0) {
    await sql.raw(`create index orders_search_trgm_idx on orders using gin (${SEARCH} gin_trgm_ops)`).execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop index if exists orders_search_trgm_idx').execute(db);
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
