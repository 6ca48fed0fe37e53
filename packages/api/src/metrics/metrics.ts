import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { buildInfo } from '../config/build-info.ts';
import type { AppDeps } from '../context/deps.ts';
import { jobFailures } from '../jobs/failures.ts';
import { countQueues } from '../jobs/repository.ts';

/**
 * Prometheus metrics (prom-client). Two registries, merged at each scrape:
 * - the process's, made once: Node's/Bun's process metrics (CPU, memory, file descriptors, event loop
 *   lag) and the job failures counted by this process's job runner;
 * - one per app (per `AppDeps`, so each test's app counts from zero): HTTP requests and their latency,
 *   connected lockers and consoles, the job queue's depth (read from the jobs table at the scrape, so
 *   every process reports the same, whole-cluster figures) and the database pool.
 * Labels are bounded: an HTTP request is labelled by its matched route pattern (`/api/orders/list`,
 * `/u/:code`), never its raw path, and a job by its type.
 */

let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    processRegistry.registerMetric(jobFailures);
    // Which build runs: one series, value 1, labelled with the version and commit (as /version says).
    new Gauge({
      name: 'medlocker_build_info',
      help: 'The version and commit this process runs (value 1)',
      labelNames: ['version', 'commit'] as const,
      registers: [processRegistry],
    }).set({ version: buildInfo.version, commit: buildInfo.commit }, 1);
  }
  return processRegistry;
}

/** The label of a request that matched no route (a 404, a refused path): one value, whatever the path. */
export const UNMATCHED_ROUTE = 'unmatched';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export type AppMetrics = {
  /** Counts a finished request and observes its latency (seconds). */
  observeRequest(q: { method: string; route: string | undefined; status: number; seconds: number }): void;
  /** Where the connected lockers' or consoles' count is read at a scrape (the hubs register it). */
  track(what: 'lockers' | 'consoles', count: () => number): void;
  /** The text a scrape answers, and its content type. */
  scrape(): Promise<string>;
  readonly contentType: string;
};

const ofDeps = new WeakMap<AppDeps, AppMetrics>();

/** The app's metrics (made on first use, one set per `AppDeps`). */
export function metricsOf(deps: AppDeps): AppMetrics {
  const known = ofDeps.get(deps);
  if (known) return known;
  const made = createAppMetrics(deps);
  ofDeps.set(deps, made);
  return made;
}

type Counts = Record<'lockers' | 'consoles', () => number>;

/** Lockers and consoles connected to this process's hubs, read at each scrape. */
function connectionGauges(registry: Registry, counts: Counts): void {
  new Gauge({
    name: 'medlocker_lockers_connected',
    help: "Lockers connected to this process's machine hub",
    registers: [registry],
    collect() {
      this.set(counts.lockers());
    },
  });
  new Gauge({
    name: 'medlocker_consoles_connected',
    help: "Consoles (live-update sockets) connected to this process's console hub",
    registers: [registry],
    collect() {
      this.set(counts.consoles());
    },
  });
}

/** The database: its pool, its kind, and the job queue it holds (read at each scrape). */
function databaseGauges(registry: Registry, deps: AppDeps): void {
  // Before the job queue's gauge: a scrape collects every metric at once, and the pool is read before
  // the queue's own query takes a connection from it.
  new Gauge({
    name: 'medlocker_db_pool_connections',
    help: 'The database pool: connections open (total), idle, and queries waiting for one (waiting). PGlite: one embedded connection, total only',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const pool = deps.dbPool?.();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      if (pool.idle !== null) this.set({ state: 'idle' }, pool.idle);
      if (pool.waiting !== null) this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  new Gauge({
    name: 'medlocker_jobs',
    help: 'Jobs in the job table not done, by type and state (waiting: not yet tried; failed: waiting again after a failure; running; dead). Whole database, not this process',
    labelNames: ['type', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const row of await countQueues(deps.db)) {
          for (const state of ['waiting', 'failed', 'running', 'dead'] as const) {
            this.set({ type: row.type, state }, Number(row[state]));
          }
        }
      } catch (error) {
        // A scrape while the database is away still answers the process's own figures.
        deps.logger.warn('metrics: the job queue could not be read', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
  });
  new Gauge({
    name: 'medlocker_db_info',
    help: 'The database this process uses (kind: postgres or pglite)',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      this.set({ kind: deps.dbKind }, 1);
    },
  });
}

function createAppMetrics(deps: AppDeps): AppMetrics {
  const registry = new Registry();
  const counts: Counts = { lockers: () => 0, consoles: () => 0 };
  const requests = new Counter({
    name: 'medlocker_http_requests_total',
    help: 'HTTP requests answered, by matched route pattern (or "unmatched"), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'medlocker_http_request_duration_seconds',
    help: 'Time from a request arriving to its response being sent, by matched route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  connectionGauges(registry, counts);
  databaseGauges(registry, deps);
  return {
    observeRequest({ method, route, status, seconds }) {
      const r = route ?? UNMATCHED_ROUTE;
      // A made-up method (`FOO /`) is one label value, not one each.
      const m = METHODS.has(method) ? method : 'other';
      requests.inc({ route: r, method: m, status: String(status) });
      latency.observe({ route: r, method: m }, seconds);
    },
    track(what, count) {
      counts[what] = count;
    },
    scrape: () => Registry.merge([processMetrics(), registry]).metrics(),
    contentType: registry.contentType,
  };
}
