import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from '../log/logger.ts';
import type { JobPayloads } from './catalogue.ts';
import type { Job } from './repository.ts';
import type { Schedule } from './schedule.ts';

/* What the job runner and the handlers it runs agree on. */

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
  job: Job<P>;
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
