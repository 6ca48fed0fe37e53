import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Retention, erasure and subject access (docs/decisions/retention.md):
 * - `retention_policy`: the product's single row (its key can only be true): how long finished orders
 *   with their messages, patients without an order, temperature readings, audit entries and delivery
 *   attempts are kept; `business_retention`: a business's overrides (null: the product's value), within
 *   the same bounds.
 * - `patients.erased_at`, `orders.anonymised_at`: when the personal fields were removed (erasure or
 *   retention); the rows stay, without them, so the monthly figures can still be computed.
 * - audit_log stays append-only, except that a transaction which sets `medlocker.audit_purge_before`
 *   (transaction-local, set_config(..., true)) may DELETE rows older than that time, and only when that
 *   time is itself more than 365 days before the database's clock: no UPDATE ever, and no delete of a
 *   recent entry whatever the application asks.
 */

const days = (column: string, min: number, max: number, fallback: number, nullable = false) =>
  `${column} integer ${nullable ? '' : `not null default ${fallback}`} check (${column} between ${min} and ${max})`;

const columns = (nullable: boolean) =>
  [
    days('order_days', 30, 3650, 730, nullable),
    days('patient_years', 1, 20, 3, nullable),
    days('temperature_days', 30, 3650, 730, nullable),
    days('audit_days', 365, 7300, 2190, nullable),
    days('delivery_days', 7, 730, 90, nullable),
  ].join(',\n    ');

const UP = [
  `create table retention_policy (
    id boolean primary key default true check (id),
    ${columns(false)},
    updated bigint not null,
    updated_by text
  )`,
  `create table business_retention (
    business_id text primary key references businesses (id) on delete cascade,
    ${columns(true)},
    updated bigint not null,
    updated_by text
  )`,
  'alter table patients add column erased_at bigint',
  'alter table orders add column anonymised_at bigint',
  // The retention job's candidates: finished orders still holding their personal fields, oldest first.
  `create index orders_retention_idx on orders (business_id, updated)
    where anonymised_at is null and status in ('collected', 'cancelled', 'removed')`,
  `create index message_outbox_patient_idx on message_outbox (patient_id) where patient_id is not null`,
  `create index patients_retention_idx on patients (business_id, created) where erased_at is null`,
  `create index temperature_readings_created_idx on temperature_readings (business_id, created)`,
  `create index integration_events_business_created_idx on integration_events (business_id, created)`,
  `create index message_outbox_staff_created_idx on message_outbox (created) where patient_id is null`,
  `create or replace function audit_log_refuse_change() returns trigger language plpgsql as $$
  declare
    purge_before bigint := nullif(current_setting('medlocker.audit_purge_before', true), '')::bigint;
    floor_ms bigint := (extract(epoch from clock_timestamp()) * 1000)::bigint - 365::bigint * 86400000;
  begin
    if tg_op = 'DELETE' and purge_before is not null and purge_before <= floor_ms and old.at < purge_before then
      return old;
    end if;
    raise exception 'audit_log is append-only';
  end;
  $$`,
];

const DOWN = [
  `create or replace function audit_log_refuse_change() returns trigger language plpgsql as $$
  begin
    raise exception 'audit_log is append-only';
  end;
  $$`,
  'drop index message_outbox_staff_created_idx',
  'drop index integration_events_business_created_idx',
  'drop index temperature_readings_created_idx',
  'drop index patients_retention_idx',
  'drop index message_outbox_patient_idx',
  'drop index orders_retention_idx',
  'alter table orders drop column anonymised_at',
  'alter table patients drop column erased_at',
  'drop table business_retention',
  'drop table retention_policy',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
