import type { ClaimedJob } from './repository.ts';

/*
 * How soon a failed job is tried again (docs/decisions/jobs.md "Retries: blips and outages"): a failure
 * on a service whose other recent attempts mostly succeed (a provider refusing one request in three) is
 * a blip, retried within seconds; otherwise (an outage, or too few attempts to tell) the full backoff.
 */

/** How far back a service's attempts count towards whether it is working, and how many are kept. */
export const HEALTH_WINDOW_MS = 30_000;
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

/** The two paces: the full backoff (`base` doubling to `max`) and the blip's (`blipBase` to `blipMax`). */
export type Pace = { base: number; max: number; blipBase: number; blipMax: number; random: () => number };

/** Each service's health in this process, and when to try a failed job again. */
export class RetryPace {
  private readonly health = new Map<string, ServiceHealth>();
  private readonly startedAt: number;

  constructor(
    private readonly pace: Pace,
    now: number,
  ) {
    this.startedAt = now;
  }

  /** Records an attempt's end on its service: ok, or a failure. */
  record(service: string, at: number, ok: boolean): void {
    this.healthOf(service).record(at, ok);
  }

  /**
   * When the job fails at `at` (not its last attempt): at the blip pace when its service is otherwise
   * working, else the full backoff. A process too new to have seen enough attempts on the service (a
   * replacement worker just started) keeps the pace the job's last failure was given by one that had:
   * without that, a replacement put every retry it took in its first moments off by the full backoff (5 s
   * doubling: a minute or more for a job on its fifth attempt), as though the provider were down.
   */
  retry(job: ClaimedJob, service: string, at: number): { retryAt: number; blip: boolean } {
    const { base, max, blipBase, blipMax, random } = this.pace;
    const verdict = this.healthOf(service).verdict(at);
    const blip =
      verdict === 'blip' || (verdict === 'unknown' && at - this.startedAt < HEALTH_WINDOW_MS && this.putOffAsBlip(job));
    const delay = blip
      ? backoffMs(job.attempts, blipBase, blipMax, random)
      : backoffMs(job.attempts, base, max, random);
    return { retryAt: at + delay, blip };
  }

  /**
   * Whether the job's last failure was put off at the blip pace (a process that could judge the service
   * chose it): the delays of the two paces never overlap (blip at most `blipBase · 2^(n-1)` capped at
   * `blipMax`, the full backoff at least half of `base · 2^(n-1)`).
   */
  private putOffAsBlip(job: ClaimedJob): boolean {
    const { base, max, blipBase, blipMax } = this.pace;
    const previous = job.attempts - 1;
    const delay = job.previousDelay;
    return (
      previous >= 1 &&
      delay !== null &&
      delay > 0 &&
      delay <= Math.min(blipMax, blipBase * 2 ** (previous - 1)) &&
      delay < Math.min(max, base * 2 ** (previous - 1)) / 2
    );
  }

  private healthOf(service: string): ServiceHealth {
    const known = this.health.get(service);
    if (known) return known;
    const made = new ServiceHealth();
    this.health.set(service, made);
    return made;
  }
}
