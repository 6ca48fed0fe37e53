import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * What the `stats.monthly` job must recompute. A statement-level trigger on the inserts of
 * each source of the monthly figures (order_events, message_outbox, machine_events, patients) appends
 * one row per business the statement touched (row-level for the rarer changes that matter: a
 * message's status, a patient's deletion), with the span of the touched rows' times, IN THE SAME TRANSACTION
 * as the change: a change row is visible exactly when its data is, whatever order transactions commit
 * in, so the job never misses a late commit (docs/decisions/reports.md, "Monthly figures"). Rows are only
 * appended (no upsert, so writers never wait on each other); the job reads them, recomputes the
 * months they name and deletes exactly the rows it read.
 * - `source`: order | message | machine | patient. Machine and patient changes also reach every
 *   later month (downtime continues, patient counts carry over); the job extends them to now.
 * - `first_at`, `last_at`: the earliest and latest time (ms) of the touched rows: events' and
 *   messages' `created`; a patient's `created`, or its `deleted_at` when it was deleted or restored.
 * `id` is a random text key (no sequence to keep in step when test snapshots put rows back); the job
 * takes the rows in no particular order and deletes those it read.
 * Indexes on (business_id, created) let the job read one business's month without a scan.
 */

const source = (table: string, name: string, at: string, where = '') =>
  `create function ${name}() returns trigger language plpgsql as $$
  begin
    insert into monthly_stats_changes (business_id, source, first_at, last_at)
      select business_id, '${table}', min(${at}), max(${at}) from new_rows
      where business_id is not null ${where} group by business_id;
    return null;
  end $$`;

const UP = [
  `create table monthly_stats_changes (
    id text primary key default gen_random_uuid()::text,
    business_id text not null,
    source text not null check (source in ('order', 'message', 'machine', 'patient')),
    first_at bigint not null,
    last_at bigint not null
  )`,
  source('order', 'monthly_stats_order_events_changed', 'created'),
  `create trigger monthly_stats_order_events_insert after insert on order_events
    referencing new table as new_rows for each statement execute function monthly_stats_order_events_changed()`,
  source('message', 'monthly_stats_messages_changed', 'created', 'and patient_id is not null'),
  `create trigger monthly_stats_messages_insert after insert on message_outbox
    referencing new table as new_rows for each statement execute function monthly_stats_messages_changed()`,
  // A message counts in the month it was queued, with its status now: a later status change reaches
  // back. Row-level with a WHEN: most outbox updates (attempts, provider ids) run no function at all.
  `create function monthly_stats_message_status_changed() returns trigger language plpgsql as $$
  begin
    insert into monthly_stats_changes (business_id, source, first_at, last_at)
      values (new.business_id, 'message', new.created, new.created);
    return null;
  end $$`,
  `create trigger monthly_stats_messages_update after update of status on message_outbox
    for each row when (old.status is distinct from new.status and new.business_id is not null and new.patient_id is not null)
    execute function monthly_stats_message_status_changed()`,
  source('machine', 'monthly_stats_machine_events_changed', 'created'),
  `create trigger monthly_stats_machine_events_insert after insert on machine_events
    referencing new table as new_rows for each statement execute function monthly_stats_machine_events_changed()`,
  source('patient', 'monthly_stats_patients_added', 'created'),
  `create trigger monthly_stats_patients_insert after insert on patients
    referencing new table as new_rows for each statement execute function monthly_stats_patients_added()`,
  // A deletion or restoration (rare, one patient at a time): row-level with a WHEN, so the import's
  // updates of patients run no function and capture no old rows.
  `create function monthly_stats_patient_deleted() returns trigger language plpgsql as $$
  begin
    insert into monthly_stats_changes (business_id, source, first_at, last_at)
      values (new.business_id, 'patient', coalesce(new.deleted_at, old.deleted_at), coalesce(new.deleted_at, old.deleted_at));
    return null;
  end $$`,
  `create trigger monthly_stats_patients_update after update of deleted_at on patients
    for each row when (old.deleted_at is distinct from new.deleted_at)
    execute function monthly_stats_patient_deleted()`,
  'create index order_events_business_created_idx on order_events (business_id, created)',
  'create index message_outbox_business_created_idx on message_outbox (business_id, created) where patient_id is not null',
  'create index machine_events_business_created_idx on machine_events (business_id, created)',
  'create index patients_business_created_idx on patients (business_id, created)',
];

const DOWN = [
  'drop index patients_business_created_idx',
  'drop index machine_events_business_created_idx',
  'drop index message_outbox_business_created_idx',
  'drop index order_events_business_created_idx',
  'drop trigger monthly_stats_patients_update on patients',
  'drop function monthly_stats_patient_deleted()',
  'drop trigger monthly_stats_patients_insert on patients',
  'drop function monthly_stats_patients_added()',
  'drop trigger monthly_stats_machine_events_insert on machine_events',
  'drop function monthly_stats_machine_events_changed()',
  'drop trigger monthly_stats_messages_update on message_outbox',
  'drop function monthly_stats_message_status_changed()',
  'drop trigger monthly_stats_messages_insert on message_outbox',
  'drop function monthly_stats_messages_changed()',
  'drop trigger monthly_stats_order_events_insert on order_events',
  'drop function monthly_stats_order_events_changed()',
  'drop table monthly_stats_changes',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
