import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Card payment attempts (Judopay): one row per hosted payment started for an order, with our
 * fresh `your_payment_reference` (Judopay refuses a reused one) and the amount, currency and judoId the
 * server asked for, so a receipt is accepted only when Judopay's own copy matches all of them. A receipt
 * is stored once (unique), which makes handling it twice change nothing.
 */

const up_ = [
  `create table payment_attempts (
    id text primary key,
    business_id text not null references businesses (id) on delete restrict,
    order_id text not null,
    your_payment_reference text not null unique,
    your_consumer_reference text not null,
    -- Judopay's reference of the hosted payment, and the page it lives on
    judo_reference text,
    post_url text,
    -- pence
    amount bigint not null check (amount > 0),
    currency text not null,
    judo_id text not null,
    status text not null default 'created' check (status in ('created', 'succeeded', 'declined', 'error')),
    receipt_id text unique,
    reason text,
    created bigint not null,
    updated bigint not null,
    completed_at bigint,
    foreign key (business_id, order_id) references orders (business_id, id) on delete restrict
  )`,
  `create index payment_attempts_order_idx on payment_attempts (business_id, order_id, id)`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of up_) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table payment_attempts').execute(db);
}
