import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The job runner (packages/api/src/jobs): one table of background work for every kind of job, taken
 * with `FOR UPDATE SKIP LOCKED` by any number of api or worker processes. A job is waiting (due at
 * `run_after`; failed ones wait again with `attempts` > 0 and `last_error`), running (held by
 * `locked_by` until `locked_until`: a worker that dies leaves a lease that runs out, and the job is
 * taken again), done, or dead (its last attempt failed; kept with its error until support retries it).
 * A dedupe key is unique among jobs not done, so one event queues one job however often it is reported.
 * job_schedules: one row per schedule with its next due time; the process that moves it on (a
 * compare-and-set in a transaction) is the one that queues the run, so a schedule fires once.
 */

const UP = [
  `create table jobs (
    id text primary key,
    type text not null,
    business_id text references businesses (id) on delete cascade,
    payload jsonb not null,
    status text not null default 'waiting' check (status in ('waiting', 'running', 'done', 'dead')),
    attempts integer not null default 0,
    max_attempts integer not null check (max_attempts > 0),
    run_after bigint not null,
    locked_until bigint,
    locked_by text,
    last_error text,
    dedupe_key text,
    created bigint not null,
    updated bigint not null
  )`,
  // claiming: due waiting jobs in due order; leases run out
  `create index jobs_due_idx on jobs (run_after) where status = 'waiting'`,
  `create index jobs_lease_idx on jobs (locked_until) where status = 'running'`,
  `create unique index jobs_dedupe_idx on jobs (dedupe_key) where dedupe_key is not null and status <> 'done'`,
  // support's queues page: counts per type and status, and a page of one type or status, newest first
  `create index jobs_type_status_idx on jobs (type, status, id)`,
  `create index jobs_status_idx on jobs (status, id)`,
  // clearing out done jobs after a while
  `create index jobs_done_idx on jobs (updated) where status = 'done'`,
  `create table job_schedules (
    name text primary key,
    pattern text not null,
    next_run_at bigint not null,
    last_run_at bigint,
    updated bigint not null
  )`,
];

const DOWN = ['drop table job_schedules', 'drop table jobs'];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
