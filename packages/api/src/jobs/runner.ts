import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';
import type { Logger } from '../http/logger.ts';
import {
  claimJobs,
  completeJob,
  deleteDoneJobs,
  failJob,
  type JobRow,
  releaseExpiredLeases,
  returnJob,
} from './repository.ts';
import { checkPattern, queueDueSchedules, type Schedule } from './schedule.ts';

/** What a handler is given: the job, and a signal that fires when the runner stops before it is done. */
export type JobContext = { job: JobRow; signal: AbortSignal };

export type JobHandler = {
  run: (context: JobContext) => Promise<void>;
  /** How long one attempt may hold the job before another process may take it (default 5 minutes). */
  leaseMs?: number;
};

/** Thrown by a handler for a failure that another attempt cannot mend (a 4xx): the job is dead at once. */
export class PermanentJobError extends Error {}

export type RunnerOptions = {
  db: Kysely<Database>;
  logger: Logger;
  now?: () => number;
  handlers: Record<string, JobHandler>;
  schedules?: Schedule[];
  /** Jobs run at once by this process (default 8). */
  concurrency?: number;
  /** How often to look for due jobs when the last look found none (default 1 s). */
  pollMs?: number;
  /** Backoff: the first retry after about `baseDelayMs` (default 5 s), doubling up to `maxDelayMs` (1 h). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Done jobs are deleted after this long (default 7 days). */
  keepDoneMs?: number;
  /** This process's name in `locked_by` (default host:pid:random). */
  worker?: string;
  random?: () => number;
};

export const DEFAULT_LEASE_MS = 5 * 60_000;

/**
 * The delay before attempt `attempts + 1`: exponential, capped, with "equal jitter" (half fixed, half
 * random), so retries of many jobs that failed together (a gateway outage) spread out instead of
 * arriving together, and never come sooner than half the nominal delay.
 */
export function backoffMs(attempts: number, base: number, max: number, random: () => number = Math.random): number {
  const nominal = Math.min(max, base * 2 ** Math.max(0, attempts - 1));
  return Math.round(nominal / 2 + (random() * nominal) / 2);
}

export type Runner = {
  readonly worker: string;
  start(): void;
  /** Looks for due work at once (after an enqueue in this process, or in tests). Resolves after one pass. */
  tick(): Promise<number>;
  /**
   * Stops taking jobs; jobs in hand get `graceMs` to finish, then their signal fires and whatever is
   * still running goes back to waiting (its attempt not counted), for another process or the next start.
   */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when no job is in hand (tests). */
  idle(): Promise<void>;
};

/**
 * The one runner of background work (docs/DECISIONS.md "Job runner"): claims due jobs of the types it
 * has handlers for with SKIP LOCKED in batches, runs them (up to `concurrency` at once), retries a
 * failure with backoff until its last attempt, then marks it dead. Frees jobs whose worker died (their
 * lease ran out), queues due schedules, and clears out old done jobs. Safe with any number of
 * processes on one PostgreSQL; on PGlite there is one process.
 */
export function createRunner(options: RunnerOptions): Runner {
  const now = options.now ?? Date.now;
  const { db, logger, handlers } = options;
  const concurrency = options.concurrency ?? 8;
  const pollMs = options.pollMs ?? 1_000;
  const base = options.baseDelayMs ?? 5_000;
  const max = options.maxDelayMs ?? 3_600_000;
  const keepDoneMs = options.keepDoneMs ?? 7 * 86_400_000;
  const random = options.random ?? Math.random;
  const worker = options.worker ?? `${process.env.HOSTNAME ?? 'local'}:${process.pid}:${Bun.randomUUIDv7().slice(-8)}`;
  const schedules = options.schedules ?? [];
  for (const s of schedules) checkPattern(s.pattern);
  const types = Object.keys(handlers);

  const inHand = new Map<string, { job: JobRow; done: Promise<void>; abort: AbortController }>();
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ticking: Promise<number> | undefined;
  let lastCleanup = 0;

  async function runOne(job: JobRow, abort: AbortController): Promise<void> {
    const handler = handlers[job.type];
    try {
      if (!handler) throw new PermanentJobError(`No handler for jobs of type ${job.type}`);
      await handler.run({ job, signal: abort.signal });
      if (abort.signal.aborted) return; // stop() returned it to waiting; a late finish changes nothing
      if (!(await completeJob(db, job.id, worker, now()))) {
        logger.warn('job finished after its lease was lost', { jobId: job.id, type: job.type });
      }
    } catch (error) {
      if (abort.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      const last = error instanceof PermanentJobError || job.attempts >= job.max_attempts;
      const at = now();
      const retryAt = last ? null : at + backoffMs(job.attempts, base, max, random);
      await failJob(db, { id: job.id, worker, now: at, error: message, retryAt });
      (last ? logger.error : logger.warn).call(logger, last ? 'job dead' : 'job failed; will retry', {
        jobId: job.id,
        type: job.type,
        attempts: job.attempts,
        error: message,
      });
    }
  }

  async function pass(): Promise<number> {
    const at = now();
    await releaseExpiredLeases(db, at);
    if (schedules.length > 0) await queueDueSchedules(db, schedules, at);
    if (at - lastCleanup > 3_600_000) {
      lastCleanup = at;
      await deleteDoneJobs(db, at - keepDoneMs);
    }
    let taken = 0;
    // Claim per lease length: handlers with their own lease are claimed apart from the rest.
    const byLease = new Map<number, string[]>();
    for (const type of types) {
      const lease = handlers[type]?.leaseMs ?? DEFAULT_LEASE_MS;
      byLease.set(lease, [...(byLease.get(lease) ?? []), type]);
    }
    for (const [leaseMs, leaseTypes] of byLease) {
      const free = concurrency - inHand.size;
      if (free <= 0 || !running) break;
      const jobs = await claimJobs(db, { types: leaseTypes, worker, now: now(), leaseMs, limit: free });
      taken += jobs.length;
      for (const job of jobs) {
        const abort = new AbortController();
        const done = runOne(job, abort)
          .catch((error) => logger.error('job runner: recording a job failed', { jobId: job.id, error: String(error) }))
          .finally(() => {
            inHand.delete(job.id);
            // A slot came free: look again soon rather than after a full poll interval.
            if (running) schedule(0);
          });
        inHand.set(job.id, { job, done, abort });
      }
    }
    return taken;
  }

  function schedule(ms: number) {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(loop, ms);
  }

  async function loop() {
    timer = undefined;
    if (!running || ticking) return;
    const taken = await tick();
    // A full batch means more may be due: look again at once when a slot frees (see runOne).
    if (running && !timer) schedule(taken > 0 && inHand.size < concurrency ? 0 : pollMs);
  }

  async function tick(): Promise<number> {
    if (ticking) return ticking;
    ticking = pass()
      .catch((error) => {
        logger.error('job runner: a pass failed', { error: error instanceof Error ? error.message : String(error) });
        return 0;
      })
      .finally(() => {
        ticking = undefined;
      });
    return ticking;
  }

  return {
    worker,
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    tick: async () => {
      const wasRunning = running;
      running = true; // a pass only claims while running
      try {
        return await tick();
      } finally {
        running = wasRunning;
      }
    },
    async idle() {
      while (inHand.size > 0) await Promise.all([...inHand.values()].map((h) => h.done));
    },
    async stop(graceMs = 5_000) {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await ticking;
      const all = Promise.all([...inHand.values()].map((h) => h.done));
      const finished = await Promise.race([all.then(() => true), Bun.sleep(graceMs).then(() => false)]);
      if (finished) return;
      for (const [id, h] of inHand) {
        h.abort.abort();
        await returnJob(db, id, worker, now());
        logger.warn('job returned to waiting at shutdown', { jobId: id, type: h.job.type });
      }
    },
  };
}
