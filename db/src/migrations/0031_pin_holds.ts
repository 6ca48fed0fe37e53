import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Held PINs (the evidence pack): staff pause the collection of live orders (e.g. the bags sat
 * through a temperature excursion) until someone has checked them. While `pin_held_at` is set the locker
 * refuses the order's PIN (VerifyPin answers `Held`); releasing clears the four columns. Who held and
 * released, and why, stays on the order's timeline (PIN_HELD / PIN_RELEASED events) and in the audit log.
 * A PIN typed while held is a try with the outcome `held` (not wrong: it counts towards no lock-out).
 *
 * The evidence pack finds the orders whose bag went into a machine from the events that put it there
 * (load, move, a bag of a closed order): an index on those alone, by business and machine, keeps that
 * a range scan of one machine's loads rather than of the business's whole history.
 */

const UP = [
  `alter table orders
    add column pin_held_at bigint,
    add column pin_held_by text,
    add column pin_held_by_display text,
    add column pin_hold_reason text`,
  'alter table pin_attempts drop constraint pin_attempts_outcome_check',
  `alter table pin_attempts add constraint pin_attempts_outcome_check
    check (outcome in ('ok', 'wrong', 'expired', 'paymentRequired', 'lockedOut', 'held'))`,
  `create index order_events_machine_entry_idx on order_events (business_id, (data->>'machineId'), created)
    where code in ('ORDER_LOADED', 'ORDER_MOVED', 'LOCKER_BAG_LOADED')`,
];

const DOWN = [
  'drop index order_events_machine_entry_idx',
  "delete from pin_attempts where outcome = 'held'",
  'alter table pin_attempts drop constraint pin_attempts_outcome_check',
  `alter table pin_attempts add constraint pin_attempts_outcome_check
    check (outcome in ('ok', 'wrong', 'expired', 'paymentRequired', 'lockedOut'))`,
  `alter table orders
    drop column pin_held_at,
    drop column pin_held_by,
    drop column pin_held_by_display,
    drop column pin_hold_reason`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
