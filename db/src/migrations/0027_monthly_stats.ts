import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Monthly figures of a business. `monthly_business_stats` (0006) kept SPEC §3's six
 * numbers; the monthly report adds the whole of an order's life, money, messages and machines.
 * A month is a Europe/London calendar month. Each row is recomputed whole from the order events,
 * messages and machine events of its month (a rebuild gives the same row), so every column has a
 * zero default and the JSON columns start empty.
 * - `orders_*`: orders created / loaded / collected / expired / cancelled / removed in the month.
 * - `collected_within_window`: collected before the order's expiry.
 * - `median_pickup_minutes`: the median minutes from load to collection of the month's
 *   collections; null when nothing was collected.
 * - `paid_amount`: pence taken by card for payments settled in the month.
 * - `exemptions_by_code`: {"A": 3, "F": 1}: exemptions declared in the month, by code.
 * - `messages_by_channel`: {"sms": {"sent": 10, "failed": 1}, "email": {...}, "whatsapp": {...}}.
 * - `machine_downtime_minutes`: minutes the business's machines were offline or out of order.
 * - `alarms_by_code`: {"EM_0001": 2}: machine alarms raised in the month, by code.
 * - `computed_at`: when the row was last recomputed (ms).
 */

const UP = [
  `alter table monthly_business_stats
    add column orders_loaded integer not null default 0,
    add column orders_expired integer not null default 0,
    add column orders_cancelled integer not null default 0,
    add column orders_removed integer not null default 0,
    add column collected_within_window integer not null default 0,
    add column median_pickup_minutes integer,
    add column paid_amount bigint not null default 0,
    add column pin_reveals integer not null default 0,
    add column exemptions_by_code jsonb not null default '{}'::jsonb,
    add column messages_by_channel jsonb not null default '{}'::jsonb,
    add column machine_downtime_minutes bigint not null default 0,
    add column alarms_by_code jsonb not null default '{}'::jsonb,
    add column computed_at bigint not null default 0`,
];

const DOWN = [
  `alter table monthly_business_stats
    drop column orders_loaded,
    drop column orders_expired,
    drop column orders_cancelled,
    drop column orders_removed,
    drop column collected_within_window,
    drop column median_pickup_minutes,
    drop column paid_amount,
    drop column pin_reveals,
    drop column exemptions_by_code,
    drop column messages_by_channel,
    drop column machine_downtime_minutes,
    drop column alarms_by_code,
    drop column computed_at`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
