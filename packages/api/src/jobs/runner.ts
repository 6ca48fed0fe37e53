import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from '../log/logger.ts';
import { withRequestId } from '../log/request-scope.ts';
import type { JobPayloads } from './catalogue.ts';
import { jobFailures } from './failures.ts';
import { type JobHandler, PermanentJobError, type Runner, type RunnerOptions } from './handler.ts';
import { RetryPace } from './pace.ts';
import {
  type ClaimedJob,
  claimJobs,
  completeJob,
  deleteDoneJobs,
  extendLeases,
  failJob,
  type Job,
  releaseExpiredLeases,
  releaseJobsOf,
  returnJob,
  runningWorkersIn,
} from './repository.ts';
import { checkPattern, queueDueSchedules, type Schedule } from './schedule.ts';
import { goneWorkers, pidSpace, workerName } from './worker-name.ts';

export const DEFAULT_LEASE_MS = 5 * 60_000;
/** The longest a runner goes without reading the schedules, however far off the next one is due. */
const SCHEDULES_LOOK_MS = 60_000;

export {
  type JobContext,
  type JobHandler,
  type JobHandlers,
  PermanentJobError,
  type Runner,
  type RunnerOptions,
} from './handler.ts';
export { backoffMs } from './pace.ts';

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
  const runner = new JobRunner(options as RunnerOptions<unknown>);
  return {
    worker: runner.worker,
    start: () => runner.start(),
    tick: () => runner.tickNow(),
    stop: (graceMs) => runner.stop(graceMs),
    idle: () => runner.idle(),
  };
}

type InHand = { job: Job; done: Promise<void>; abort: AbortController };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

class JobRunner {
  readonly worker: string;
  private readonly db: Kysely<Database>;
  private readonly logger: Logger;
  private readonly now: () => number;
  // Claimed rows carry their type as text: looked up by it, each handler gets the payload its type stores.
  private readonly handlers: Record<string, JobHandler | undefined>;
  private readonly types: string[];
  /** Each type's lease, for the claim. */
  private readonly leases: Record<string, number>;
  private readonly concurrency: number;
  /** Slots that must come free before a finished job makes the runner look again at once. */
  private readonly claimBatch: number;
  private readonly pollMs: number;
  private readonly keepDoneMs: number;
  private readonly space: string | undefined;
  private readonly schedules: Schedule<unknown>[];
  private readonly pace: RetryPace;
  private readonly inHand = new Map<string, InHand>();
  private running = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticking: Promise<number> | undefined;
  private lastCleanup = 0;
  private lastHousekeeping = Number.NEGATIVE_INFINITY;
  /** When to read the schedules next: the next due one as the last look saw them, a minute at most. */
  private schedulesDue = Number.NEGATIVE_INFINITY;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private renewing = false;

  constructor(options: RunnerOptions<unknown>) {
    this.now = options.now ?? Date.now;
    this.db = options.db;
    this.logger = options.logger;
    this.handlers = options.handlers as Record<string, JobHandler | undefined>;
    this.types = Object.keys(this.handlers);
    this.leases = Object.fromEntries(this.types.map((type) => [type, this.leaseOf(type)]));
    this.concurrency = options.concurrency ?? 8;
    this.claimBatch = Math.max(1, Math.floor(this.concurrency / 4));
    this.pollMs = options.pollMs ?? 1_000;
    this.keepDoneMs = options.keepDoneMs ?? 7 * 86_400_000;
    this.space = pidSpace();
    this.worker = options.worker ?? workerName(this.space);
    this.schedules = options.schedules ?? [];
    for (const s of this.schedules) checkPattern(s.pattern);
    this.pace = new RetryPace(
      {
        base: options.baseDelayMs ?? 5_000,
        max: options.maxDelayMs ?? 3_600_000,
        blipBase: options.blipDelayMs ?? 1_000,
        blipMax: options.blipMaxDelayMs ?? 4_000,
        random: options.random ?? Math.random,
      },
      this.now(),
    );
  }

  private leaseOf(type: string): number {
    return this.handlers[type]?.leaseMs ?? DEFAULT_LEASE_MS;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
    const shortest = Math.min(DEFAULT_LEASE_MS, ...this.types.map((t) => this.leaseOf(t)));
    this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(100, Math.floor(shortest / 3)));
  }

  /** One pass at once, claiming even when not started (tests, and after an enqueue in this process). */
  async tickNow(): Promise<number> {
    const wasRunning = this.running;
    this.running = true; // a pass only claims while running
    try {
      return await this.tick();
    } finally {
      this.running = wasRunning;
    }
  }

  async idle(): Promise<void> {
    while (this.inHand.size > 0) await Promise.all([...this.inHand.values()].map((h) => h.done));
  }

  async stop(graceMs = 5_000): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await this.ticking;
    const all = Promise.all([...this.inHand.values()].map((h) => h.done));
    const finished = await Promise.race([all.then(() => true), Bun.sleep(graceMs).then(() => false)]);
    if (finished) return;
    for (const [id, h] of this.inHand) {
      h.abort.abort();
      await returnJob(this.db, id, this.worker, this.now());
      this.logger.warn('job returned to waiting at shutdown', {
        jobId: id,
        type: h.job.type,
        requestId: h.job.requestId ?? undefined,
      });
    }
  }

  /**
   * Runs one attempt on behalf of the request that queued the job: its log lines, and the jobs it queues,
   * carry that request's id (log/request-scope.ts).
   */
  private runOne(job: ClaimedJob, abort: AbortController): Promise<void> {
    return withRequestId(job.requestId, () => this.attempt(job, abort));
  }

  private async attempt(job: ClaimedJob, abort: AbortController): Promise<void> {
    const handler = this.handlers[job.type];
    let service = job.type;
    const dependsOn = (name: string) => {
      service = `${job.type}:${name}`;
    };
    let completed = false;
    const complete = async (tx: Kysely<Database> | Transaction<Database>) => {
      completed = true;
      await this.markDone(tx, job);
    };
    try {
      if (!handler) throw new PermanentJobError(`No handler for jobs of type ${job.type}`);
      await handler.run({ job, signal: abort.signal, dependsOn, complete });
      this.pace.record(service, this.now(), true);
      if (!abort.signal.aborted) {
        this.logger.debug('job done', {
          jobId: job.id,
          type: job.type,
          attempts: job.attempts,
          requestId: job.requestId ?? undefined,
        });
      }
      // Marked done in the handler's own transaction; or stop() returned it to waiting (a late finish changes nothing).
      if (completed || abort.signal.aborted) return;
      await this.markDone(this.db, job);
    } catch (error) {
      if (!abort.signal.aborted) await this.failed(job, service, error);
    }
  }

  private async markDone(tx: Kysely<Database> | Transaction<Database>, job: Job): Promise<void> {
    if (!(await completeJob(tx, job.id, this.worker, this.now()))) {
      this.logger.warn('job finished after its lease was lost', { jobId: job.id, type: job.type });
    }
  }

  /** A failed attempt: tried again at the pace its service calls for, or dead after its last attempt. */
  private async failed(job: ClaimedJob, service: string, error: unknown): Promise<void> {
    const message = errorText(error);
    const permanent = error instanceof PermanentJobError;
    const last = permanent || job.attempts >= job.maxAttempts;
    const at = this.now();
    // A permanent refusal is an answer: the service is up.
    this.pace.record(service, at, permanent);
    const retry = last ? null : this.pace.retry(job, service, at);
    await failJob(this.db, {
      id: job.id,
      worker: this.worker,
      now: at,
      error: message,
      retryAt: retry?.retryAt ?? null,
    });
    jobFailures.inc({ type: job.type, outcome: last ? 'dead' : 'retry' });
    (last ? this.logger.error : this.logger.warn).call(this.logger, last ? 'job dead' : 'job failed; will retry', {
      jobId: job.id,
      type: job.type,
      requestId: job.requestId ?? undefined,
      attempts: job.attempts,
      error: message,
      ...(retry === null ? {} : { retryInMs: retry.retryAt - at, blip: retry.blip }),
    });
  }

  /** Extends the lease of every job in hand, so only a process that died or stalled lets one run out. */
  private async renewLeases(): Promise<void> {
    if (this.renewing || this.inHand.size === 0) return;
    this.renewing = true;
    try {
      const byLease = this.byLease([...this.inHand.values()].map(({ job }) => [job.type, job.id]));
      for (const [leaseMs, ids] of byLease) {
        await extendLeases(this.db, { ids, worker: this.worker, until: this.now() + leaseMs });
      }
    } catch (error) {
      this.logger.error('job runner: renewing leases failed', { error: errorText(error) });
    } finally {
      this.renewing = false;
    }
  }

  /** Values grouped by the lease length of their job type. */
  private byLease(entries: [type: string, value: string][]): Map<number, string[]> {
    const grouped = new Map<number, string[]>();
    for (const [type, value] of entries) {
      const lease = this.leaseOf(type);
      grouped.set(lease, [...(grouped.get(lease) ?? []), value]);
    }
    return grouped;
  }

  /**
   * Run-out leases, the jobs of gone workers and due schedules, at most once a second: leases last seconds
   * at the shortest and schedules name minutes, while a busy runner passes several times a second. (Each
   * schedule look was four statements and a croner time-zone walk: a third of a busy worker's CPU,
   * bench/messages.) Old done jobs are deleted once an hour.
   */
  private async housekeeping(at: number): Promise<void> {
    if (at - this.lastHousekeeping >= 1_000) {
      this.lastHousekeeping = at;
      await releaseExpiredLeases(this.db, at);
      // A runner in this pid space whose process is gone (killed, crashed) holds its jobs no more: they
      // are taken again now rather than when their leases run out (10 s for a message). Runners elsewhere
      // are left to their leases: a pid means nothing outside its space (jobs/worker-name.ts).
      if (this.space) {
        const gone = goneWorkers(await runningWorkersIn(this.db, this.space), this.space);
        const released = await releaseJobsOf(this.db, gone, at);
        if (released > 0) {
          this.logger.warn('jobs of a stopped worker taken back', { workers: gone.join(' '), jobs: released });
        }
      }
      // Between due times a process reads the schedules once a minute, not once a second: it knows the
      // next one from its last look, and the minute bounds how long a row another version of the code
      // (or a person) changed goes unseen.
      if (this.schedules.length > 0 && at >= this.schedulesDue) {
        const { nextDue } = await queueDueSchedules(this.db, this.schedules, at);
        this.schedulesDue = Math.min(nextDue, at + SCHEDULES_LOOK_MS);
      }
    }
    if (at - this.lastCleanup > 3_600_000) {
      this.lastCleanup = at;
      await deleteDoneJobs(this.db, at - this.keepDoneMs);
    }
  }

  /** One look for due work: housekeeping, then one claim into the free slots. */
  private async pass(): Promise<number> {
    await this.housekeeping(this.now());
    const free = this.concurrency - this.inHand.size;
    if (free <= 0 || !this.running) return 0;
    // One claim for every type, each leased for its handler's time.
    const jobs = await claimJobs(this.db, {
      types: this.types,
      worker: this.worker,
      now: this.now(),
      leaseMs: DEFAULT_LEASE_MS,
      leases: this.leases,
      limit: free,
    });
    for (const job of jobs) this.take(job);
    return jobs.length;
  }

  /** Runs a claimed job; when it ends and enough slots are free, looks again at once. */
  private take(job: ClaimedJob): void {
    const abort = new AbortController();
    const done = this.runOne(job, abort)
      .catch((error) =>
        this.logger.error('job runner: recording a job failed', { jobId: job.id, error: String(error) }),
      )
      .finally(() => {
        this.inHand.delete(job.id);
        // Slots came free: look again now rather than after a full poll interval, once a quarter of
        // them are free (one claim, one commit, for several jobs rather than one each).
        if (this.running && this.concurrency - this.inHand.size >= this.claimBatch) this.schedule(0);
      });
    this.inHand.set(job.id, { job, done, abort });
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.loop(), ms);
  }

  private async loop(): Promise<void> {
    this.timer = undefined;
    if (!this.running || this.ticking) return;
    const taken = await this.tick();
    // A full batch means more may be due: look again at once when a slot frees (see take).
    if (this.running && !this.timer) this.schedule(taken > 0 && this.inHand.size < this.concurrency ? 0 : this.pollMs);
  }

  private tick(): Promise<number> {
    if (this.ticking) return this.ticking;
    this.ticking = this.pass()
      .catch((error) => {
        this.logger.error('job runner: a pass failed', { error: errorText(error) });
        return 0;
      })
      .finally(() => {
        this.ticking = undefined;
      });
    return this.ticking;
  }
}
