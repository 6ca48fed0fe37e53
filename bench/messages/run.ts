/**
 * bench/messages: N `message.send` messages through a local The SMS Works
 * that fails a share of requests at random (500, 503 and 429 in equal parts: all retryable), worked by
 * the product's own worker (`packages/api/src/worker.ts`) as separate OS processes on PostgreSQL, once
 * undisturbed and once with a worker killed (`kill -9`) at about 1/3 and 2/3 of the run and a
 * replacement started at once. On demand only, never part of `npm test`.
 *
 * The gateway records every message it accepted by our reference (the `tag` the adapter sends: the
 * message id) and the id it answered; a refused request delivers nothing. Like The SMS Works, it POSTs a
 * delivery report (`DELIVERED`, the message object) to the `deliveryreporturl` of each message it accepted,
 * shortly after: one api process (`packages/api/src/main.ts`, JOBS=off, production settings) receives
 * them at PUBLIC_URL, which the workers get too. A message whose worker died between handing it over and
 * recording the answer is UNCONFIRMED; its report adopts the id, and one with no report after the grace
 * period (`--grace`, 5 s here; the product's default is 600 s) is sent again (packages/api/src/delivery/messages/reconcile.ts).
 * After the run: every message must have reached the gateway exactly once (no duplicate, none missing),
 * the id recorded on the message must be the one the gateway answered, no job dead and none left
 * waiting or running.
 * `--lost-answers R` makes a share R of requests "accepted but answered 500" (the message is delivered,
 * the answer says it failed): the product retries a 5xx (it cannot tell this case from a refusal), so
 * those come out as duplicates; it is reported apart and is not part of the goal.
 *
 * Baseline in the same run: the same N POSTs straight to the same gateway by a bare loop (no database),
 * as many in flight as the workers run jobs at once, a refused request sent again at once until accepted.
 *
 * Run from the repo root:
 *   bun bench/messages/run.ts [--count 10000] [--failure-rate 0.3] [--kills 0,2] [--workers 2]
 *     [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--pglite] [--lost-answers 0]
 *     [--goal 60] [--give-up 120] [--grace 5] [--keep]
 * Env: BENCH_DATABASE_URL for --database-url; MESSAGES_COUNT, MESSAGES_FAILURE_RATE, MESSAGES_KILLS too.
 * Each scenario runs in a fresh database created beside the URL's (dropped afterwards unless --keep).
 * `--pglite` adds a single-process PGlite run (the runner in this process: no kills; not a goal).
 * Exits 1 when a goal is missed. BENCH_ASYNC_COMMIT=1 (diagnosis only) sets `synchronous_commit = off` on
 * the bench's database, to see how much of the time is the disk's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { createDb, type Database, migrateToLatest } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import { runJobs } from '../../packages/api/src/job-handlers.ts';
import { type OutboxMessage, queueMessages } from '../../packages/api/src/outbox/index.ts';
import { benchDeps } from '../app-deps.ts';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: process.env.MESSAGES_COUNT ?? '10000' },
    'failure-rate': { type: 'string', default: process.env.MESSAGES_FAILURE_RATE ?? '0.3' },
    kills: { type: 'string', default: process.env.MESSAGES_KILLS ?? '0,2' },
    workers: { type: 'string', default: '2' },
    'database-url': {
      type: 'string',
      default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
    pglite: { type: 'boolean', default: false },
    'lost-answers': { type: 'string', default: '0' },
    goal: { type: 'string', default: '60' },
    'give-up': { type: 'string' },
    grace: { type: 'string', default: process.env.MESSAGES_UNCONFIRMED_GRACE_SECONDS ?? '5' },
    keep: { type: 'boolean', default: false },
  },
});
const COUNT = Number(args.count);
const FAILURE_RATE = Number(args['failure-rate']);
const LOST_RATE = Number(args['lost-answers']);
const KILLS = args.kills
  .split(',')
  .filter(Boolean)
  .map((k) => Number(k));
const WORKERS = Number(args.workers);
const GOAL_S = Number(args.goal);
/** Seconds an unconfirmed message waits for its report before it is sent again (the workers' setting). */
const GRACE_S = Number(args.grace);
/** Jobs each worker runs at once: JOBS_CONCURRENCY as the workers get it, else the product's default. */
const PER_WORKER = Number(process.env.JOBS_CONCURRENCY ?? 16);
/** A run is given up after this long (then reported with what is left). */
const GIVE_UP_MS = (args['give-up'] ? Number(args['give-up']) : Math.max(GOAL_S * 2, GOAL_S + 60)) * 1000;
const JWT = 'JWT bench-token';
const BUSINESS = 'b0000000-0000-7000-8000-0000000000b1';
const SECRETS_KEY = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
const log = (...a: unknown[]) => console.log(...a);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const int = (n: number) => n.toLocaleString('en-GB');

// ---------------------------------------------------------------------------------------------------
// The SMS Works, locally: POST /v1/message/send with the JWT, `{sender, destination, content, tag, …}`.

type GatewayStats = {
  requests: number;
  refused: Record<429 | 500 | 503, number>;
  /** Accepted, then answered 500 (`--lost-answers`). */
  lostAnswers: number;
  /** tag → the ids the gateway gave each time it accepted that message. */
  accepted: Map<string, string[]>;
  /** Delivery reports POSTed and answered 2xx; and POSTs that failed (each retried, up to 20 times). */
  reports: number;
  reportFailures: number;
};

/** The delivery report of one accepted message, POSTed like The SMS Works does, retried until the api answers. */
async function postReport(url: string, report: Record<string, unknown>, stats: () => GatewayStats) {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(report),
      });
      await res.text();
      if (res.ok) {
        stats().reports += 1;
        return;
      }
    } catch {}
    stats().reportFailures += 1;
    await Bun.sleep(500);
  }
}

function startGateway() {
  let seq = 0;
  let stats = newStats();
  function newStats(): GatewayStats {
    return {
      requests: 0,
      refused: { 429: 0, 500: 0, 503: 0 },
      lostAnswers: 0,
      accepted: new Map(),
      reports: 0,
      reportFailures: 0,
    };
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== 'POST' || url.pathname !== '/v1/message/send')
        return Response.json({ message: 'Not found' }, { status: 404 });
      if (req.headers.get('authorization') !== JWT) return Response.json({ message: 'Unauthorised' }, { status: 401 });
      const body = (await req.json().catch(() => null)) as Record<string, unknown> | null;
      const tag = body?.tag;
      if (typeof tag !== 'string' || !body?.destination || !body.content || !body.sender)
        return Response.json({ message: 'sender, destination, content and tag are required' }, { status: 400 });
      stats.requests += 1;
      const r = Math.random();
      if (r < FAILURE_RATE - LOST_RATE) {
        const status = ([429, 500, 503] as const)[Math.floor(Math.random() * 3)] ?? 500;
        stats.refused[status] += 1;
        const words = { 429: 'Too many requests', 500: 'Internal server error', 503: 'Service unavailable' };
        return Response.json({ message: words[status] }, { status });
      }
      const messageid = `swb-${++seq}`;
      const ids = stats.accepted.get(tag);
      if (ids) ids.push(messageid);
      else stats.accepted.set(tag, [messageid]);
      const reportUrl = body.deliveryreporturl;
      if (typeof reportUrl === 'string' && reportUrl.startsWith('http://127.0.0.1:')) {
        // Shortly after, as the provider does: its delivery report to the URL the message gave.
        const report = {
          messageid,
          status: 'DELIVERED',
          destination: Number(body.destination),
          sender: body.sender,
          content: body.content,
          tag,
          created: new Date().toISOString(),
        };
        const current = stats;
        setTimeout(() => void postReport(reportUrl, report, () => current), 100 + Math.random() * 400);
      }
      if (r < FAILURE_RATE) {
        stats.lostAnswers += 1;
        return Response.json({ message: 'Internal server error' }, { status: 500 });
      }
      return Response.json({ messageid, status: 'SENT', credits: 1 }, { status: 201 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    get stats() {
      return stats;
    },
    reset() {
      stats = newStats();
    },
    stop: () => server.stop(true),
  };
}
type Gateway = ReturnType<typeof startGateway>;

// ---------------------------------------------------------------------------------------------------
// Database: a fresh one per scenario, a business on The SMS Works, N messages through the real outbox.

async function seedMessages(db: Kysely<Database>): Promise<{ ids: string[]; ms: number }> {
  const now = Date.now();
  await db
    .insertInto('businesses')
    .values({ id: BUSINESS, name: 'Bench Pharmacy', email: 'bench@example.com', created: now, updated: now })
    .execute();
  await db
    .insertInto('business_controlled_settings')
    .values({ business_id: BUSINESS, settings: JSON.stringify({ smsGateway: 'thesmsworks' }), updated: now })
    .execute();
  const t0 = performance.now();
  for (let from = 0; from < COUNT; from += 500) {
    const messages: OutboxMessage[] = [];
    for (let i = from; i < Math.min(COUNT, from + 500); i++) {
      messages.push({
        businessId: BUSINESS,
        runAfter: now,
        message: {
          channel: 'sms',
          recipient: `07700 9${String(i).padStart(5, '0')}`,
          templateKey: 'bench',
          body: `Bench message ${i + 1}: your medicine is ready to collect.`,
        },
      });
    }
    await db.transaction().execute((tx) => queueMessages(tx, messages, now));
  }
  const ms = performance.now() - t0;
  const rows = await db.selectFrom('message_outbox').select('id').execute();
  return { ids: rows.map((r) => r.id), ms };
}

/** message.send jobs done and dead; jobs of both message types waiting or running; the last one ended. */
type Progress = { done: number; dead: number; waiting: number; running: number; lastUpdated: number };

/** Every message's first job ended, and nothing of the messages' is left to run (resends, checks). */
const isFinished = (p: Progress) => p.done + p.dead >= COUNT && p.waiting + p.running === 0;

async function progress(db: Kysely<Database>): Promise<Progress> {
  const { rows } = await sql<Progress>`
    select count(*) filter (where status = 'done' and type = 'message.send')::int as done,
      count(*) filter (where status = 'dead')::int as dead,
      count(*) filter (where status = 'waiting')::int as waiting,
      count(*) filter (where status = 'running')::int as running,
      coalesce(max(updated) filter (where status in ('done', 'dead')), 0)::bigint as "lastUpdated"
    from jobs where type in ('message.send', 'message.reconcile')`.execute(db);
  const p = rows[0] as Progress;
  return { ...p, lastUpdated: Number(p.lastUpdated) };
}

// ---------------------------------------------------------------------------------------------------
// Workers: `bun packages/api/src/worker.ts`, as `npm run worker` runs it, in production settings.

function workerEnv(databaseUrl: string, gateway: Gateway, logDir: string, publicUrl = 'https://medlocker.bench') {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATA_DIR: logDir,
    SECRETS_KEY,
    PUBLIC_URL: publicUrl,
    MESSAGES_UNCONFIRMED_GRACE_SECONDS: String(GRACE_S),
    SMSWORKS_JWT: JWT,
    SMSWORKS_API_URL: gateway.url,
    LOG_LEVEL: 'info',
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('JOBS_'))),
  };
}

type Worker = { proc: Bun.Subprocess; pid: number; started: number };
const living = new Set<Bun.Subprocess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of living) child.kill('SIGKILL');
    process.exit(1);
  });
}

let workerSeq = 0;
function spawnWorker(env: Record<string, string>, logDir: string): Worker {
  workerSeq += 1;
  const out = Bun.file(join(logDir, `worker-${workerSeq}.log`));
  // BENCH_WORKER_PROFILE=dir: each worker writes a CPU profile (markdown) there when it stops.
  const profile = process.env.BENCH_WORKER_PROFILE;
  const flags = profile ? ['--cpu-prof-md', `--cpu-prof-dir=${profile}`] : [];
  const proc = Bun.spawn([process.execPath, ...flags, 'packages/api/src/worker.ts'], { env, stdout: out, stderr: out });
  living.add(proc);
  void proc.exited.then(() => living.delete(proc));
  return { proc, pid: proc.pid, started: performance.now() };
}

/**
 * The api process that receives the gateway's delivery reports (JOBS=off: it runs no jobs), on a free
 * port of 127.0.0.1, PUBLIC_URL pointing at it; answers once it serves.
 */
async function startApi(env: Record<string, string>, logDir: string): Promise<{ proc: Bun.Subprocess; url: string }> {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port;
  probe.stop(true);
  const url = `http://127.0.0.1:${port}`;
  const out = Bun.file(join(logDir, 'api.log'));
  const proc = Bun.spawn([process.execPath, 'packages/api/src/main.ts'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, JOBS: 'off', DEMO_FLEET: '0' },
    stdout: out,
    stderr: out,
  });
  living.add(proc);
  void proc.exited.then(() => living.delete(proc));
  const t0 = performance.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the api process exited (${proc.exitCode}); see ${logDir}/api.log`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { proc, url };
    if (performance.now() - t0 > 60_000) throw new Error('the api process did not start within 60 s');
    await Bun.sleep(100);
  }
}

async function stopWorker(w: Worker) {
  w.proc.kill('SIGTERM');
  const stopped = await Promise.race([w.proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
  if (!stopped) w.proc.kill('SIGKILL');
  await w.proc.exited;
}

// ---------------------------------------------------------------------------------------------------
// One scenario.

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

type Kill = { at: number; doneAt: number; held: number; recoveredAfter: number | null };

type Outcome = {
  name: string;
  database: 'PostgreSQL' | 'PGlite';
  processes: string;
  enqueueMs: number;
  firstAt: number;
  /** When 95% of the messages were done: what is after it is the tail (retry chains, a killed worker's jobs). */
  mostAt: number;
  wallMs: number;
  finished: boolean;
  gateway: GatewayStats;
  deliveredOnce: number;
  duplicates: number;
  missing: number;
  /** Missing and not flagged UNCONFIRMED: a message lost without anyone being told. */
  silentlyLost: number;
  wrongId: number;
  /** Left without the provider's id at the end (flagged for staff), and of them how many the gateway had. */
  unconfirmed: number;
  unconfirmedDelivered: number;
  /** Messages whose delivery report set them delivered. */
  reportedDelivered: number;
  /** Unconfirmed messages checked after the grace period, and how many of them were sent again. */
  checks: number;
  resent: number;
  dead: number;
  left: number;
  kills: Kill[];
  /** CPU seconds the worker processes used (PostgreSQL only). */
  workerCpuS?: number;
  /** The bare loop's messages/s, run just before this scenario. */
  baselinePerSecond: number;
  loadAverage: string;
};

async function checkOutcome(db: Kysely<Database>, ids: string[], gateway: Gateway) {
  const stats = gateway.stats;
  const rows = await db
    .selectFrom('message_outbox')
    .select(['id', 'status', 'provider_message_id', 'provider_status'])
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  let deliveredOnce = 0;
  let duplicates = 0;
  let missing = 0;
  let wrongId = 0;
  let unconfirmed = 0;
  let unconfirmedDelivered = 0;
  let silentlyLost = 0;
  let reportedDelivered = 0;
  for (const id of ids) {
    const got = stats.accepted.get(id) ?? [];
    const row = byId.get(id);
    // Still without the provider's id: neither the answer nor a report was recorded (flagged for staff).
    const flagged = row?.provider_message_id == null && (row?.provider_status ?? '').startsWith('UNCONFIRMED');
    if (row?.status === 'success') reportedDelivered += 1;
    if (got.length === 0) {
      missing += 1;
      if (!flagged) silentlyLost += 1;
    } else if (got.length === 1) deliveredOnce += 1;
    else duplicates += got.length - 1;
    if (flagged) {
      unconfirmed += 1;
      if (got.length > 0) unconfirmedDelivered += 1;
    } else if (row?.provider_message_id == null || !got.includes(row.provider_message_id)) wrongId += 1;
  }
  // Each unconfirmed message got one check; each check that found no report queued one more send job.
  const { rows: jobs } = await sql<{ type: string; n: number }>`
    select type, count(*)::int as n from jobs where type in ('message.send', 'message.reconcile') group by type`.execute(
    db,
  );
  const count = (type: string) => jobs.find((j) => j.type === type)?.n ?? 0;
  const checks = count('message.reconcile');
  const resent = count('message.send') - ids.length;
  return {
    deliveredOnce,
    duplicates,
    missing,
    silentlyLost,
    wrongId,
    unconfirmed,
    unconfirmedDelivered,
    reportedDelivered,
    checks,
    resent,
  };
}

type Measured = Omit<Outcome, 'baselinePerSecond' | 'loadAverage'>;

async function runPostgres(base: string, gateway: Gateway, kills: number): Promise<Measured> {
  const name = kills === 0 ? `${WORKERS} workers` : `${WORKERS} workers, kill -9 ×${kills}`;
  log(`\n== PostgreSQL, ${name}: ${int(COUNT)} messages, ${FAILURE_RATE * 100}% of requests refused`);
  const fresh = await createFreshPostgresDatabase(base);
  const opened = await createDb({ kind: 'postgres', url: fresh.url, max: 4 });
  const logDir = mkdtempSync(join(tmpdir(), 'bench-messages-'));
  try {
    await migrateToLatest(opened.db);
    if (process.env.BENCH_ASYNC_COMMIT === '1') {
      // Diagnosis only: how much of the time is waiting for the disk at commit.
      await sql
        .raw(`alter database "${new URL(fresh.url).pathname.slice(1)}" set synchronous_commit = off`)
        .execute(opened.db);
    }
    const { ids, ms: enqueueMs } = await seedMessages(opened.db);
    log(`queued ${int(ids.length)} messages through the outbox in ${s(enqueueMs)}`);
    const api = await startApi(workerEnv(fresh.url, gateway, logDir), logDir);
    gateway.reset();
    const env = workerEnv(fresh.url, gateway, logDir, api.url);
    const t0 = performance.now();
    const wall0 = Date.now();
    const workers = Array.from({ length: WORKERS }, () => spawnWorker(env, logDir));
    const killPlan = Array.from({ length: kills }, (_, i) => Math.round((COUNT * (i + 1)) / (kills + 1)));
    const killed: (Kill & { worker: string; ids: string[] })[] = [];
    let killedCpuS = 0;
    let firstAt = 0;
    let mostAt = 0;
    let p = await progress(opened.db);
    while (!isFinished(p) && performance.now() - t0 < GIVE_UP_MS) {
      await Bun.sleep(250);
      p = await progress(opened.db);
      if (!firstAt && p.done > 0) firstAt = performance.now() - t0;
      if (!mostAt && p.done >= COUNT * 0.95) mostAt = performance.now() - t0;
      const next = killPlan[killed.length];
      if (next !== undefined && p.done >= next) {
        // The oldest worker dies at once, as a crash would; a replacement starts at once.
        const victim = workers.shift() as Worker;
        killedCpuS += cpuSeconds(victim.pid);
        victim.proc.kill('SIGKILL');
        await victim.proc.exited;
        workers.push(spawnWorker(env, logDir));
        const held = await sql<{ id: string; locked_by: string }>`
          select id, locked_by from jobs where status = 'running' and locked_by like ${`%:${victim.pid}:%`}`.execute(
          opened.db,
        );
        killed.push({
          at: performance.now() - t0,
          doneAt: p.done,
          held: held.rows.length,
          recoveredAfter: held.rows.length === 0 ? 0 : null,
          worker: held.rows[0]?.locked_by ?? `:${victim.pid}:`,
          ids: held.rows.map((r) => r.id),
        });
        log(
          `  kill -9 worker ${victim.pid} at ${s(performance.now() - t0)} (${int(p.done)} done): it held ${held.rows.length} jobs`,
        );
      }
      for (const k of killed) {
        if (k.recoveredAfter !== null) continue;
        // Recovered when none of its jobs is still leased to the dead worker.
        const still = await sql<{ n: number }>`
          select count(*)::int as n from jobs where id in (${sql.join(k.ids)}) and locked_by = ${k.worker}`.execute(
          opened.db,
        );
        if ((still.rows[0]?.n ?? 0) === 0) {
          k.recoveredAfter = performance.now() - t0 - k.at;
          log(`  the dead worker's jobs were taken again ${s(k.recoveredAfter)} after the kill`);
        }
      }
    }
    const finished = isFinished(p);
    const wallMs = finished ? p.lastUpdated - wall0 : performance.now() - t0;
    const workerCpuS = workers.reduce((sum, w) => sum + cpuSeconds(w.pid), 0) + killedCpuS;
    await Promise.all(workers.map(stopWorker));
    // Reports still on their way are let in before the api stops (they change no outcome counted here).
    await Bun.sleep(1_000);
    api.proc.kill('SIGTERM');
    await api.proc.exited;
    p = await progress(opened.db);
    const checked = await checkOutcome(opened.db, ids, gateway);
    return {
      name,
      database: 'PostgreSQL',
      processes: `${WORKERS} workers`,
      enqueueMs,
      firstAt,
      mostAt,
      wallMs,
      finished,
      gateway: gateway.stats,
      ...checked,
      dead: p.dead,
      left: p.waiting + p.running,
      kills: killed.map(({ at, doneAt, held, recoveredAfter }) => ({ at, doneAt, held, recoveredAfter })),
      workerCpuS,
    };
  } finally {
    for (const child of living) child.kill('SIGKILL');
    await opened.close();
    if (args.keep) log(`kept ${fresh.url}; worker logs in ${logDir}`);
    else {
      await fresh.drop();
      rmSync(logDir, { recursive: true, force: true });
    }
  }
}

/** PGlite: one process holds the database, so the runner runs here (beside the gateway); no kills. */
async function runPglite(gateway: Gateway): Promise<Measured> {
  log(`\n== PGlite, one process: ${int(COUNT)} messages, ${FAILURE_RATE * 100}% of requests refused`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-messages-pglite-'));
  mkdirSync(join(dir, 'db'));
  const opened = await createDb({ kind: 'pglite', dataDir: join(dir, 'db') });
  try {
    await migrateToLatest(opened.db);
    const { ids, ms: enqueueMs } = await seedMessages(opened.db);
    log(`queued ${int(ids.length)} messages through the outbox in ${s(enqueueMs)}`);
    gateway.reset();
    const env = workerEnv('', gateway, dir) as Record<string, string | undefined>;
    env.DATABASE_URL = undefined;
    const deps = benchDeps(opened, env);
    const t0 = performance.now();
    const wall0 = Date.now();
    const runner = runJobs(deps);
    let firstAt = 0;
    let mostAt = 0;
    let p = await progress(opened.db);
    while (!isFinished(p) && performance.now() - t0 < GIVE_UP_MS) {
      await Bun.sleep(250);
      p = await progress(opened.db);
      if (!firstAt && p.done > 0) firstAt = performance.now() - t0;
      if (!mostAt && p.done >= COUNT * 0.95) mostAt = performance.now() - t0;
    }
    const finished = isFinished(p);
    const wallMs = finished ? p.lastUpdated - wall0 : performance.now() - t0;
    await runner.stop(5_000);
    p = await progress(opened.db);
    const checked = await checkOutcome(opened.db, ids, gateway);
    return {
      name: '1 process (runner in the bench)',
      database: 'PGlite',
      processes: '1 process',
      enqueueMs,
      firstAt,
      mostAt,
      wallMs,
      finished,
      gateway: gateway.stats,
      ...checked,
      dead: p.dead,
      left: p.waiting + p.running,
      kills: [],
    };
  } finally {
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The baseline: the same N POSTs (the adapter's body) straight to the gateway, `inFlight` at once, a
 * refused request sent again at once until accepted. No database, no backoff.
 */
async function runBaseline(gateway: Gateway, inFlight: number) {
  gateway.reset();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < COUNT) {
        const i = next++;
        for (;;) {
          const res = await fetch(`${gateway.url}/v1/message/send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json', authorization: JWT },
            body: JSON.stringify({
              sender: 'Bench Pharm',
              destination: `447700${String(900000 + i)}`,
              content: `Bench message ${i + 1}: your medicine is ready to collect.`,
              tag: `baseline-${i}`,
            }),
          });
          await res.text();
          if (res.ok) break;
        }
      }
    }),
  );
  const ms = performance.now() - t0;
  return { ms, requests: gateway.stats.requests, perSecond: COUNT / (ms / 1000) };
}

// ---------------------------------------------------------------------------------------------------

const gateway = startGateway();
const outcomes: Outcome[] = [];
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
/** Each scenario beside a baseline run just before it: the machine's speed moves within minutes. */
async function withBaseline(scenario: () => Promise<Measured>) {
  const load = loadAverage();
  const baseline = await runBaseline(gateway, WORKERS * PER_WORKER);
  log(
    `\nbaseline: ${int(COUNT)} messages in ${s(baseline.ms)} (${int(baseline.requests)} requests, ${WORKERS * PER_WORKER} in flight)`,
  );
  outcomes.push({ ...(await scenario()), baselinePerSecond: baseline.perSecond, loadAverage: load });
}
try {
  for (const kills of KILLS) await withBaseline(() => runPostgres(args['database-url'], gateway, kills));
  if (args.pglite) await withBaseline(() => runPglite(gateway));
} finally {
  gateway.stop();
}

log(
  `\n${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load average now ${loadAverage()}; ${int(COUNT)} messages,`,
);
log(
  `${FAILURE_RATE * 100}% of requests refused (429/500/503)${LOST_RATE ? `, of which ${LOST_RATE * 100}% accepted and answered 500` : ''}.`,
);
log(
  `Baseline: no database, ${WORKERS * PER_WORKER} in flight, refused ones sent again at once, run before each scenario.`,
);
log(
  `Each accepted message's delivery report POSTed to the api 0.1–0.5 s later; unconfirmed messages checked after ${GRACE_S} s.\n`,
);
log(
  '| run | database | load average at start | requests | refused 429 / 500 / 503 | delivered once | duplicates | missing | reports (failed POSTs) | unconfirmed: checked / sent again / left (of them delivered) | dead | left | first sent | 95% done | **all done** | messages/s | baseline messages/s | ÷ baseline | kills: jobs held at, taken again after | goal |',
);
log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
let failed = false;
for (const o of outcomes) {
  const perSecond = COUNT / (o.wallMs / 1000);
  // The product's guarantee: never twice, nothing lost unflagged, nothing dead or left, in time.
  const kept =
    o.duplicates === 0 && o.silentlyLost === 0 && o.wrongId === 0 && o.dead === 0 && o.left === 0 && o.finished;
  const inTime = o.finished && o.wallMs <= GOAL_S * 1000;
  const goal =
    o.database === 'PGlite'
      ? '(PostgreSQL goal)'
      : !kept || !inTime
        ? '**not met**'
        : o.missing === 0
          ? 'met'
          : `at most once: met; exactly once: ${o.missing} lost, flagged UNCONFIRMED`;
  if (o.database === 'PostgreSQL' && (!kept || !inTime)) failed = true;
  const g = o.gateway;
  const kills = o.kills
    .map((k) => `${k.held} at ${s(k.at)}, ${k.recoveredAfter === null ? 'never' : s(k.recoveredAfter)}`)
    .join('; ');
  log(
    `| ${o.name} | ${o.database} | ${o.loadAverage.split(' ')[0]} | ${int(g.requests)} | ${int(g.refused[429])} / ${int(g.refused[500])} / ${int(g.refused[503])}${g.lostAnswers ? ` (+${g.lostAnswers} accepted, answered 500)` : ''} | ${int(o.deliveredOnce)} | ${o.duplicates} | ${o.missing} | ${int(g.reports)} (${g.reportFailures}) | ${o.checks} / ${o.resent} / ${o.unconfirmed} (${o.unconfirmedDelivered}) | ${o.dead} | ${o.left} | ${s(o.firstAt)} | ${o.mostAt ? s(o.mostAt) : '–'} | **${o.finished ? s(o.wallMs) : `> ${s(o.wallMs)}`}** | ${int(Math.round(perSecond))} | ${int(Math.round(o.baselinePerSecond))} | ${(perSecond / o.baselinePerSecond).toFixed(3)} | ${kills || '–'} | ${goal} |`,
  );
  if (o.workerCpuS)
    log(
      `  ${o.name}: the workers used ${o.workerCpuS.toFixed(1)} CPU s, ${((o.workerCpuS * 1000) / o.gateway.requests).toFixed(2)} ms per attempt`,
    );
  if (o.wrongId) log(`  ${o.wrongId} messages recorded an id the gateway did not give them`);
  if (o.silentlyLost) log(`  ${o.silentlyLost} messages never reached the gateway and are not flagged UNCONFIRMED`);
}
log(`\nGoal: every message delivered exactly once, none dead or left, all done within ${GOAL_S} s (PostgreSQL).
A worker killed between handing a message to the gateway and recording the answer leaves it UNCONFIRMED: its
delivery report adopts the provider's id; with no report after the grace period it is sent once more
(packages/api/src/delivery/messages/reconcile.ts); a resend unconfirmed too is left UNCONFIRMED and failed for staff (never a third time).
Exit 1 when a message went twice, was lost unflagged, is dead or left, or the run took longer than the goal.`);
process.exit(failed ? 1 : 0);
