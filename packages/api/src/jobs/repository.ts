import type { Database } from '@medlocker/db';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { newestFirst } from '../lists/newest-first-repository.ts';
import { currentRequestId } from '../log/request-scope.ts';
import type { JobPayloads } from './catalogue.ts';

type Db = Kysely<Database> | Transaction<Database>;

export type JobStatus = 'waiting' | 'running' | 'done' | 'dead';

/** A job as the runner hands it to its handler (`P`: its payload's type). */
export type JobRow<P = unknown> = {
  id: string;
  type: string;
  business_id: string | null;
  payload: P;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_after: number;
  locked_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  dedupe_key: string | null;
  created: number;
  updated: number;
  /** The id of the request that queued it (X-Request-Id), for the logs; null when no request did. */
  request_id: string | null;
};

/** A job as the runner hands it to its handler (`P`: its payload's type). */
export type Job<P = unknown> = {
  id: string;
  type: string;
  businessId: string | null;
  payload: P;
  /** This attempt's number (1 for the first). */
  attempts: number;
  maxAttempts: number;
  /** The id of the request that queued it (X-Request-Id), for the logs; null when no request did. */
  requestId: string | null;
};

/**
 * A job as a claim hands it over, with `previousDelay`: how long its last failure put it off (ms from
 * that failure to the due time it set), so a process that cannot yet judge the service itself can keep
 * the pace the last one chose (jobs/pace.ts); null for a first attempt, or a job that was not put off
 * by a failure (its lease ran out, returned at a stop, retried by staff).
 */
export type ClaimedJob = Job & { previousDelay: number | null };

/**
 * A job to queue, of one of the catalogue's types with that type's payload (`Payloads`: the catalogue;
 * the runner's own tests pass theirs).
 */
export type NewJob<Payloads = JobPayloads> = {
  [T in keyof Payloads]: { type: T & string; payload: Payloads[T] } & JobOptions;
}[keyof Payloads];

type JobOptions = {
  businessId?: string | null;
  /** ms; default now */
  runAfter?: number;
  /** A second job with this key is not stored while the first is not done. */
  dedupeKey?: string | null;
  /** Default 5. */
  maxAttempts?: number;
  /** Default: the request (or the job) being handled now (log/request-scope.ts), if any. */
  requestId?: string | null;
  /**
   * When a job with the dedupe key is already waiting: `keep` it as it is (default), or `runSooner`:
   * bring it forward to this job's `runAfter` if that is earlier (a running one is left alone).
   */
  onDuplicate?: 'keep' | 'runSooner';
};

export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Queues a job in the caller's transaction (pass the transaction, so the job commits with the change
 * that caused it), with the id of the request being handled (so the runner's log lines for it name the
 * request that queued it). Answers its id, or null when a job with its dedupe key is already waiting, running
 * or dead.
 */
export async function enqueueJob<Payloads = JobPayloads>(
  tx: Db,
  job: NewJob<NoInfer<Payloads>>,
  now = Date.now(),
): Promise<string | null> {
  const id = Bun.randomUUIDv7();
  const onDuplicate =
    job.onDuplicate === 'runSooner'
      ? sql`do update set run_after = least(jobs.run_after, excluded.run_after), updated = excluded.updated
          where jobs.status = 'waiting'`
      : sql`do nothing`;
  const { rows } = await sql<{ id: string }>`
    insert into jobs (id, type, business_id, payload, max_attempts, run_after, dedupe_key, created, updated, request_id)
    values (${id}, ${job.type}, ${job.businessId ?? null}, ${JSON.stringify(job.payload ?? null)}::jsonb,
      ${job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}, ${job.runAfter ?? now}, ${job.dedupeKey ?? null}, ${now}, ${now},
      ${job.requestId === undefined ? currentRequestId() : job.requestId})
    on conflict (dedupe_key) where dedupe_key is not null and status <> 'done' ${onDuplicate}
    returning id`.execute(tx);
  return rows[0]?.id ?? null;
}

/**
 * Takes up to `limit` due waiting jobs of these types for `worker`, each until `now` plus its type's lease
 * (`leases`, else `leaseMs`): rows another process is taking at the same moment are skipped, never waited
 * for, so each job goes to one worker.
 * Oldest job first among those due (ids are UUIDv7: creation order; `jobs_status_idx` is (status, id)):
 * a retry that comes due goes before jobs queued after it, rather than behind every job due before its
 * retry time (a backlog of 10,000 messages pushed each refused one behind the whole backlog, then its
 * next refusal behind all the second tries: docs/decisions/jobs.md "Oldest due job first").
 */
export async function claimJobs(
  db: Db,
  q: {
    types: string[];
    worker: string;
    now: number;
    /** The lease of a claimed job, unless `leases` names its type. */
    leaseMs: number;
    leases?: Record<string, number>;
    limit: number;
  },
): Promise<ClaimedJob[]> {
  if (q.types.length === 0 || q.limit <= 0) return [];
  const { rows } = await sql<JobRow & { previous_delay: number | string | null }>`
    update jobs j set status = 'running', attempts = j.attempts + 1, locked_by = ${q.worker},
      locked_until = ${leaseEnd(q)}, updated = ${q.now}
    from (
      select id, case when attempts > 0 and run_after > updated then run_after - updated end as previous_delay
      from jobs
      where status = 'waiting' and run_after <= ${q.now} and type in (${sql.join(q.types)})
      order by id
      limit ${q.limit}
      for update skip locked) due
    where j.id = due.id
    returning j.*, due.previous_delay`.execute(db);
  // Oldest first, as chosen (an update's returning has no order of its own): the runner starts them so.
  rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    businessId: row.business_id,
    payload: row.payload,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    requestId: row.request_id,
    previousDelay: row.previous_delay === null ? null : Number(row.previous_delay),
  }));
}

/** When a claimed job's lease runs out: one statement claims the types of every lease length. */
function leaseEnd(q: { types: string[]; now: number; leaseMs: number; leases?: Record<string, number> }) {
  const other = q.types.filter((type) => (q.leases?.[type] ?? q.leaseMs) !== q.leaseMs);
  if (other.length === 0) return sql`${q.now + q.leaseMs}`;
  const when = other.map((type) => sql`when ${type} then cast(${q.now + (q.leases?.[type] ?? 0)} as bigint)`);
  return sql`case j.type ${sql.join(when, sql` `)} else cast(${q.now + q.leaseMs} as bigint) end`;
}

/**
 * Jobs whose lease ran out (their worker died or hung) wait again, or are dead when that was their last
 * attempt. Answers how many it moved.
 */
export function releaseExpiredLeases(db: Db, now: number): Promise<number> {
  return releaseRunning(db, sql`locked_until <= ${now}`, 'lease ran out', now);
}

/**
 * The running jobs that `which` picks wait again at `now`, or are dead when that was their last attempt;
 * their error says why their worker let go. Answers how many it moved.
 */
async function releaseRunning(db: Db, which: RawBuilder<unknown>, why: string, now: number): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    update jobs set
      status = case when attempts >= max_attempts then 'dead' else 'waiting' end,
      last_error = ${`The worker running it stopped before it finished (${why})`},
      locked_by = null, locked_until = null, run_after = ${now}, updated = ${now}
    where id in (
      select id from jobs where status = 'running' and ${which}
      for update skip locked)
    returning id`.execute(db);
  return rows.length;
}

/** The names of the runners holding running jobs, of those whose names end with this pid space. */
export async function runningWorkersIn(db: Db, space: string): Promise<string[]> {
  const { rows } = await sql<{ locked_by: string }>`
    select distinct locked_by from jobs
    where status = 'running' and locked_by like ${`%:${space}`}`.execute(db);
  return rows.map((r) => r.locked_by);
}

/**
 * The running jobs of runners whose process is gone wait again at once (or are dead when that was their
 * last attempt), as a run-out lease would have them later. Answers how many it moved.
 */
export async function releaseJobsOf(db: Db, workers: string[], now: number): Promise<number> {
  if (workers.length === 0) return 0;
  return releaseRunning(db, sql`locked_by in (${sql.join(workers)})`, 'its process is gone', now);
}

/** The worker still holding these jobs keeps them until `until`; answers how many it still held. */
export async function extendLeases(db: Db, q: { ids: string[]; worker: string; until: number }): Promise<number> {
  if (q.ids.length === 0) return 0;
  const r = await db
    .updateTable('jobs')
    .set({ locked_until: q.until })
    .where('id', 'in', q.ids)
    .where('locked_by', '=', q.worker)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The worker that holds the job records it done; false when it no longer holds it (lease lost). */
export async function completeJob(db: Db, id: string, worker: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ status: 'done', locked_by: null, locked_until: null, updated: now })
    .where('id', '=', id)
    .where('locked_by', '=', worker)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A failed attempt: wait again until `retryAt`, or dead when `retryAt` is null. */
export async function failJob(
  db: Db,
  q: { id: string; worker: string; now: number; error: string; retryAt: number | null },
): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({
      status: q.retryAt === null ? 'dead' : 'waiting',
      run_after: q.retryAt ?? q.now,
      last_error: q.error.slice(0, 2000),
      locked_by: null,
      locked_until: null,
      updated: q.now,
    })
    .where('id', '=', q.id)
    .where('locked_by', '=', q.worker)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A job in hand at shutdown goes back to waiting, its attempt not counted. */
export async function returnJob(db: Db, id: string, worker: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'waiting',
      attempts: eb('attempts', '-', 1),
      locked_by: null,
      locked_until: null,
      run_after: now,
      updated: now,
    }))
    .where('id', '=', id)
    .where('locked_by', '=', worker)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A dead job waits again with all its attempts; null when it is not dead (or not there). */
export async function retryDeadJob(db: Db, id: string, now: number): Promise<JobRow | null> {
  const row = await db
    .updateTable('jobs')
    .set({ status: 'waiting', attempts: 0, run_after: now, updated: now })
    .where('id', '=', id)
    .where('status', '=', 'dead')
    .returningAll()
    .executeTakeFirst();
  return row ? normalise(row as JobRow) : null;
}

export function findJob(db: Db, id: string) {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
    .then((r) => (r ? normalise(r as JobRow) : undefined));
}

/** Per type: how many wait (not yet tried), failed (wait again after a failure), run, and are dead. */
export async function countQueues(db: Db) {
  const { rows } = await sql<{ type: string; waiting: number; failed: number; running: number; dead: number }>`
    select type,
      count(*) filter (where status = 'waiting' and attempts = 0)::int as waiting,
      count(*) filter (where status = 'waiting' and attempts > 0)::int as failed,
      count(*) filter (where status = 'running')::int as running,
      count(*) filter (where status = 'dead')::int as dead
    from jobs where status <> 'done'
    group by type order by type`.execute(db);
  return rows;
}

/** A page of jobs newest first (ids are UUIDv7), `limit + 1` rows; `failed` is waiting after a failure. */
export function listJobRows(
  db: Db,
  q: { type?: string; status?: JobStatus | 'failed'; before?: string; limit: number },
) {
  let query = db.selectFrom('jobs').selectAll();
  if (q.type) query = query.where('type', '=', q.type);
  if (q.status === 'failed') query = query.where('status', '=', 'waiting').where('attempts', '>', 0);
  else if (q.status) query = query.where('status', '=', q.status);
  return newestFirst(query, q).then((rows) => rows.map((r) => normalise(r as JobRow)));
}

/** Done jobs older than `before` are deleted, `limit` at a time; answers how many. */
export async function deleteDoneJobs(db: Db, before: number, limit = 5_000): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    delete from jobs where id in (
      select id from jobs where status = 'done' and updated < ${before} limit ${limit} for update skip locked)
    returning id`.execute(db);
  return rows.length;
}

// bigint columns come back as strings from pg and numbers from PGlite: the runner reads numbers.
function normalise(row: JobRow): JobRow {
  return {
    ...row,
    attempts: Number(row.attempts),
    max_attempts: Number(row.max_attempts),
    run_after: Number(row.run_after),
    locked_until: row.locked_until === null ? null : Number(row.locked_until),
    created: Number(row.created),
    updated: Number(row.updated),
  };
}
