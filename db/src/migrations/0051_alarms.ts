import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * Alarms handled, not just shown (docs/decisions/machines.md, "Alarms: acknowledged, escalated,
 * resolved"): one row per critical alarm a machine raised, open → acknowledged → resolved.
 * - At most one unresolved alarm per machine and code (`alarms_unresolved_key`): the same code raised
 *   again while one is open or acknowledged adds to `repeats` instead of a second alarm.
 * - `escalation_level` 0 (the business's keyholders were told when it was raised), 1 (the group's
 *   contacts), 2 (support); `next_escalation_at` is when the escalation job takes the next step, null
 *   when there is none (acknowledged, resolved, at level 2, or a QA test machine's).
 * - `acknowledged_by_*` and `resolved_by_*` keep the person's id and name as they were;
 *   `resolved_how` is 'locker' (the locker or its temperature said it cleared) or 'person'.
 */

const UP = [
  `create table alarms (
    id text primary key,
    business_id text not null references businesses (id),
    machine_id text not null references machines (id) on delete cascade,
    code text not null,
    level text not null,
    event_id text,
    raised_at bigint not null,
    repeats integer not null default 0,
    state text not null default 'open' check (state in ('open', 'acknowledged', 'resolved')),
    acknowledged_at bigint,
    acknowledged_by_id text,
    acknowledged_by_display text,
    ack_reason text,
    ack_note text,
    resolved_at bigint,
    resolved_by_id text,
    resolved_by_display text,
    resolved_how text check (resolved_how in ('locker', 'person')),
    resolve_note text,
    escalation_level integer not null default 0,
    next_escalation_at bigint,
    created bigint not null,
    updated bigint not null
  )`,
  `create unique index alarms_unresolved_key on alarms (machine_id, code) where state <> 'resolved'`,
  `create index alarms_business_unresolved_idx on alarms (business_id, raised_at) where state <> 'resolved'`,
  'create index alarms_machine_raised_idx on alarms (machine_id, raised_at)',
];

const DOWN = ['drop table alarms'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
