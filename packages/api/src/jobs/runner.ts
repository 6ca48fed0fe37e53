import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from '../log/logger.ts';
import { withRequestId } from '../log/request-scope.ts';
import type { JobPayloads } from './catalogue.ts';
import { jobFailures } from './failures.ts';
import {
  type ClaimedJob,
  claimJobs,
  completeJob,
  deleteDoneJobs,
  extendLeases,
  failJob,
  type JobRow,
  releaseExpiredLeases,
  releaseJobsOf,
  returnJob,
  runningWorkersIn,
} from './repository.ts';
import { checkPattern, queueDueSchedules, type Schedule } from './schedule.ts';
import { goneWorkers, pidSpace, workerName } from './worker-name.ts';

/**
 * What a handler is given: the job, a signal that fires when the runner stops before it is done,
 * `dependsOn(name)`: the outside service (a gateway) this attempt is about to call, so the runner paces
 * retries by how that service is doing (see {@link createRunner}), and `complete(tx)`: marks the job done
 * in the handler's own last transaction, so its outcome and the job's end commit together (one commit
 * where there were two); the runner then records nothing more when the handler returns. A handler that
 * does not call it is marked done after it returns, as before. (A transaction that rolls back takes the
 * mark with it; the handler's error then fails the attempt as usual.)
 */
export type JobContext<P = unknown> = {
  job: JobRow<P>;
  signal: AbortSignal;
  dependsOn: (service: string) => void;
  complete: (tx: Kysely<Database> | Transaction<Database>) => Promise<void>;
};

export type JobHandler<P = unknown> = {
  run: (context: JobContext<P>) => Promise<void>;
  /**
   * How long another process waits for an attempt before it may take the job (default 5 minutes). The
   * runner renews the lease of every job in hand every third of it, so only a dead or stalled process
   * lets it run out: short leases free a killed worker's jobs soon without cutting off slow attempts.
   */
  leaseMs?: number;
};

/** A handler for each job type of a catalogue (`JobPayloads` unless told), each typed by its payload. */
export type JobHandlers<Payloads = JobPayloads> = { [T in keyof Payloads]: JobHandler<Payloads[T]> };

/** Thrown by a handler for a failure that another attempt cannot mend (a 4xx): the job is dead at once. */
export class PermanentJobError extends Error {}

export type RunnerOptions<Payloads = JobPayloads> = {
  db: Kysely<Database>;
  logger: Logger;
  now?: () => number;
  /** The types this runner takes: every one of the catalogue's in the api and worker, a few in tests. */
  handlers: Partial<JobHandlers<Payloads>>;
  schedules?: Schedule<Payloads>[];
  /** Jobs run at once by this process (default 8). */
  concurrency?: number;
  /** How often to look for due jobs when the last look found none (default 1 s). */
  pollMs?: number;
  /** Backoff: the first retry after about `baseDelayMs` (default 5 s), doubling up to `maxDelayMs` (1 h). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Backoff while the service an attempt failed on is otherwise working (most of its recent attempts
   * succeed): the first retry after about `blipDelayMs` (default 1 s), doubling up to `blipMaxDelayMs`
   * (4 s). See {@link isBlip}.
   */
  blipDelayMs?: number;
  blipMaxDelayMs?: number;
  /** Done jobs are deleted after this long (default 7 days). */
  keepDoneMs?: number;
  /** This process's name in `locked_by` (default host:pid:random:pid space, jobs/worker-name.ts). */
  worker?: string;
  random?: () => number;
};

export const DEFAULT_LEASE_MS = 5 * 60_000;

/** How far back a service's attempts count towards whether it is working, and how many are kept. */
const HEALTH_WINDOW_MS = 30_000;
const HEALTH_KEEP = 200;
/** A failure is a blip when at least this many attempts on its service ended in the window… */
const BLIP_MIN_ATTEMPTS = 10;
/** …and fewer than this share of them failed. */
const BLIP_MAX_FAILED = 0.5;

/**
 * The recent attempts on one service (a job type, or the gateway a handler named with `dependsOn`) in
 * this process, to tell a blip (a failure among successes: a flaky provider) from an outage (most
 * attempts fail, or too few to tell).
 */
export class ServiceHealth {
  private readonly at: number[] = [];
  private readonly ok: boolean[] = [];
  record(at: number, ok: boolean) {
    this.at.push(at);
    this.ok.push(ok);
    if (this.at.length > HEALTH_KEEP) {
      this.at.shift();
      this.ok.shift();
    }
  }
  /** A blip, an outage (most attempts in the window failed), or unknown (too few attempts to tell). */
  verdict(now: number): 'blip' | 'outage' | 'unknown' {
    let attempts = 0;
    let failed = 0;
    for (let i = this.at.length - 1; i >= 0 && now - (this.at[i] as number) <= HEALTH_WINDOW_MS; i--) {
      attempts += 1;
      if (!this.ok[i]) failed += 1;
    }
    if (attempts < BLIP_MIN_ATTEMPTS) return 'unknown';
    return failed < attempts * BLIP_MAX_FAILED ? 'blip' : 'outage';
  }
}

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
 * The one runner of background work (docs/decisions/jobs.md "Job runner"): claims due jobs of the types it
 * has handlers for with SKIP LOCKED in batches, runs them (up to `concurrency` at once), retries a
 * failure with backoff until its last attempt, then marks it dead. Renews the leases of the jobs in
 * hand, frees jobs whose worker died (their lease ran out), queues due schedules, and clears out old
 * done jobs. Safe with any number of processes on one PostgreSQL; on PGlite there is one process.
 *
 * Retry pace (docs/decisions/jobs.md "Retries: blips and outages"): a failure on a service whose other
 * recent attempts mostly succeed (a provider refusing one request in three) is retried within seconds
 * (`blipDelayMs`, capped at `blipMaxDelayMs`); otherwise (an outage, or too few attempts to tell) with
 * the full backoff (`baseDelayMs` doubling to `maxDelayMs`). Both count the job's attempts.
 */
export function createRunner<Payloads = JobPayloads>(options: RunnerOptions<NoInfer<Payloads>>): Runner {
  const now = options.now ?? Date.now;
  const { db, logger } = options;
  // Claimed rows carry their type as text: looked up by it, each handler gets the payload its type stores.
  const handlers = options.handlers as Record<string, JobHandler | undefined>;
  const concurrency = options.concurrency ?? 8;
  const claimBatch = Math.max(1, Math.floor(concurrency / 4));
  const pollMs = options.pollMs ?? 1_000;
  const base = options.baseDelayMs ?? 5_000;
  const max = options.maxDelayMs ?? 3_600_000;
  const blipBase = options.blipDelayMs ?? 1_000;
  const blipMax = options.blipMaxDelayMs ?? 4_000;
  const keepDoneMs = options.keepDoneMs ?? 7 * 86_400_000;
  const random = options.random ?? Math.random;
  const space = pidSpace();
  const worker = options.worker ?? workerName(space);
  const schedules = options.schedules ?? [];
  for (const s of schedules) checkPattern(s.pattern);
  const types = Object.keys(handlers);
  const leaseOf = (type: string) => handlers[type]?.leaseMs ?? DEFAULT_LEASE_MS;
  const health = new Map<string, ServiceHealth>();
  const healthOf = (service: string) => {
    const known = health.get(service);
    if (known) return known;
    const h = new ServiceHealth();
    health.set(service, h);
    return h;
  };

  /**
   * Whether the job's last failure was put off at the blip pace (a process that could judge the service
   * chose it): the delays of the two paces never overlap (blip at most `blipBase · 2^(n-1)` capped at
   * `blipMax`, the full backoff at least half of `base · 2^(n-1)`).
   */
  const putOffAsBlip = (job: ClaimedJob) => {
    const previous = job.attempts - 1;
    const delay = job.previous_delay;
    return (
      previous >= 1 &&
      delay !== null &&
      delay > 0 &&
      delay <= Math.min(blipMax, blipBase * 2 ** (previous - 1)) &&
      delay < Math.min(max, base * 2 ** (previous - 1)) / 2
    );
  };
  const startedAt = now();

  const inHand = new Map<string, { job: JobRow; done: Promise<void>; abort: AbortController }>();
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ticking: Promise<number> | undefined;
  let lastCleanup = 0;
  let lastHousekeeping = Number.NEGATIVE_INFINITY;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let renewing = false;

  /**
   * Runs one attempt on behalf of the request that queued the job: its log lines, and the jobs it queues,
   * carry that request's id (http/request-meta.ts).
   */
  function runOne(job: ClaimedJob, abort: AbortController): Promise<void> {
    return withRequestId(job.request_id, () => attempt(job, abort));
  }

  async function attempt(job: ClaimedJob, abort: AbortController): Promise<void> {
    const handler = handlers[job.type];
    let service = job.type;
    const dependsOn = (name: string) => {
      service = `${job.type}:${name}`;
    };
    let completed = false;
    const complete = async (tx: Kysely<Database> | Transaction<Database>) => {
      completed = true;
      if (!(await completeJob(tx, job.id, worker, now()))) {
        logger.warn('job finished after its lease was lost', { jobId: job.id, type: job.type });
      }
    };
    try {
      if (!handler) throw new PermanentJobError(`No handler for jobs of type ${job.type}`);
      await handler.run({ job, signal: abort.signal, dependsOn, complete });
      healthOf(service).record(now(), true);
      if (!abort.signal.aborted) {
        logger.debug('job done', {
          jobId: job.id,
          type: job.type,
          attempts: job.attempts,
          requestId: job.request_id ?? undefined,
        });
      }
      // Marked done in the handler's own transaction; or stop() returned it to waiting (a late finish changes nothing).
      if (completed || abort.signal.aborted) return;
      if (!(await completeJob(db, job.id, worker, now()))) {
        logger.warn('job finished after its lease was lost', { jobId: job.id, type: job.type });
      }
    } catch (error) {
      if (abort.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof PermanentJobError;
      const last = permanent || job.attempts >= job.max_attempts;
      const at = now();
      // A permanent refusal is an answer: the service is up.
      healthOf(service).record(at, permanent);
      // A process too new to have seen enough attempts on the service (a replacement worker just
      // started) keeps the pace the job's last failure was given by one that had: without that, a
      // replacement put every retry it took in its first moments off by the full backoff (5 s doubling:
      // a minute or more for a job on its fifth attempt), as though the provider were down.
      const verdict = healthOf(service).verdict(at);
      const blip =
        !last &&
        (verdict === 'blip' || (verdict === 'unknown' && at - startedAt < HEALTH_WINDOW_MS && putOffAsBlip(job)));
      const retryAt = last
        ? null
        : at + (blip ? backoffMs(job.attempts, blipBase, blipMax, random) : backoffMs(job.attempts, base, max, random));
      await failJob(db, { id: job.id, worker, now: at, error: message, retryAt });
      jobFailures.inc({ type: job.type, outcome: last ? 'dead' : 'retry' });
      (last ? logger.error : logger.warn).call(logger, last ? 'job dead' : 'job failed; will retry', {
        jobId: job.id,
        type: job.type,
        requestId: job.request_id ?? undefined,
        attempts: job.attempts,
        error: message,
        ...(retryAt === null ? {} : { retryInMs: retryAt - at, blip }),
      });
    }
  }

  /** Extends the lease of every job in hand, so only a process that died or stalled lets one run out. */
  async function renewLeases() {
    if (renewing || inHand.size === 0) return;
    renewing = true;
    try {
      const byLease = new Map<number, string[]>();
      for (const { job } of inHand.values()) {
        const lease = leaseOf(job.type);
        byLease.set(lease, [...(byLease.get(lease) ?? []), job.id]);
      }
      for (const [leaseMs, ids] of byLease) await extendLeases(db, { ids, worker, until: now() + leaseMs });
    } catch (error) {
      logger.error('job runner: renewing leases failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      renewing = false;
    }
  }

  async function pass(): Promise<number> {
    const at = now();
    // Run-out leases and due schedules at most once a second: leases last seconds at the shortest and
    // schedules name minutes, while a busy runner passes several times a second. (Each schedule look was
    // four statements and a croner time-zone walk: a third of a busy worker's CPU, bench/messages.)
    if (at - lastHousekeeping >= 1_000) {
      lastHousekeeping = at;
      await releaseExpiredLeases(db, at);
      // A runner in this pid space whose process is gone (killed, crashed) holds its jobs no more: they
      // are taken again now rather than when their leases run out (10 s for a message). Runners elsewhere
      // are left to their leases: a pid means nothing outside its space (jobs/worker-name.ts).
      if (space) {
        const gone = goneWorkers(await runningWorkersIn(db, space), space);
        const released = await releaseJobsOf(db, gone, at);
        if (released > 0)
          logger.warn('jobs of a stopped worker taken back', { workers: gone.join(' '), jobs: released });
      }
      if (schedules.length > 0) await queueDueSchedules(db, schedules, at);
    }
    if (at - lastCleanup > 3_600_000) {
      lastCleanup = at;
      await deleteDoneJobs(db, at - keepDoneMs);
    }
    let taken = 0;
    // Claim per lease length: handlers with their own lease are claimed apart from the rest.
    const byLease = new Map<number, string[]>();
    for (const type of types) {
      const lease = leaseOf(type);
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
            // Slots came free: look again now rather than after a full poll interval, once a quarter of
            // them are free (one claim, one commit, for several jobs rather than one each).
            if (running && concurrency - inHand.size >= claimBatch) schedule(0);
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
      const shortest = Math.min(DEFAULT_LEASE_MS, ...types.map(leaseOf));
      heartbeat = setInterval(() => void renewLeases(), Math.max(100, Math.floor(shortest / 3)));
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
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = undefined;
      await ticking;
      const all = Promise.all([...inHand.values()].map((h) => h.done));
      const finished = await Promise.race([all.then(() => true), Bun.sleep(graceMs).then(() => false)]);
      if (finished) return;
      for (const [id, h] of inHand) {
        h.abort.abort();
        await returnJob(db, id, worker, now());
        logger.warn('job returned to waiting at shutdown', {
          jobId: id,
          type: h.job.type,
          requestId: h.job.request_id ?? undefined,
        });
      }
    },
  };
}
