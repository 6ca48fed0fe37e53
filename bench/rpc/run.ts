/**
 * RPC read benchmark (on demand, never part of `npm test`): the same load, from a separate process,
 * first against a bare Bun.serve answering the same bytes (the floor of this machine at this moment),
 * then against the api serving `businesses/listBusinesses` (25 rows, a support session's cookie).
 * Reports requests/s, p50/p99/max latency, the api's speed as a ratio to the bare server, each server's
 * CPU per request (read from /proc: what other work on a shared machine moves least) and the load
 * generator's CPU (a share of one core near 1 means the generator, not the server, set the pace).
 *
 *   bun bench/rpc/run.ts --db pglite|postgres [--clients 32] [--seconds 10] [--warmup 3] [--cache 1|0]
 *     [--mode test|production]  (production: no output check against the contract, as production runs)
 *
 * PostgreSQL comes from TEST_DATABASE_URL (a fresh database is created and dropped).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import { benchOrigin } from './mode.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    clients: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    cache: { type: 'string', default: '1' },
    mode: { type: 'string', default: 'test' },
  },
});
// `--mode production`: the api runs as production does (server.ts); the load sends its https origin.
if (values.mode === 'production') process.env.BENCH_MODE = 'production';
const kind = values.db === 'postgres' ? 'postgres' : 'pglite';
const here = import.meta.dir;
const bun = process.execPath;

async function spawnReady(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([bun, ...args], { stdout: 'pipe', stderr: 'inherit', env: { ...process.env, ...env } });
  const reader = proc.stdout.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${args[0]} exited before it was ready`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, line: text.trim() };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; 0 elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving database `url` (the bench's own fresh database), by pid. */
async function backendsOf(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/**
 * The load against `url`, with the server process's CPU per request and, on PostgreSQL, its backends'
 * (warm-up included in both; a backend that ended during the run is not counted).
 */
async function loadOn(pid: number, url: string, cookie = '', dbUrl?: string) {
  const before = cpuSeconds(pid);
  const backendsBefore = new Map((dbUrl ? await backendsOf(dbUrl) : []).map((p) => [p, cpuSeconds(p)]));
  const result = await load(url, cookie);
  const all = result.requests + result.warmupRequests;
  const serverCpuMs = ((cpuSeconds(pid) - before) * 1000) / all;
  let backendSeconds = 0;
  for (const p of dbUrl ? await backendsOf(dbUrl) : []) backendSeconds += cpuSeconds(p) - (backendsBefore.get(p) ?? 0);
  return { ...result, serverCpuMs, dbCpuMs: dbUrl ? (backendSeconds * 1000) / all : undefined };
}

async function load(url: string, cookie = '', body = '{}') {
  const proc = Bun.spawn(
    [
      bun,
      join(here, 'load.ts'),
      url,
      values.clients as string,
      values.seconds as string,
      values.warmup as string,
      cookie,
      body,
    ],
    // process.env as this script has set it (BENCH_MODE): Bun.spawn's default is the environment at start.
    { stdout: 'pipe', stderr: 'inherit', env: { ...process.env } },
  );
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as {
    requests: number;
    warmupRequests: number;
    loadCpu: number;
    errors: number;
    rps: number;
    p50: number;
    p99: number;
    max: number;
  };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-rpc-'));
let dropDatabase: (() => Promise<void>) | undefined;
let where = join(dir, 'pglite');
if (kind === 'postgres') {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is needed for --db postgres');
  const fresh = await createFreshPostgresDatabase(url);
  where = fresh.url;
  dropDatabase = fresh.drop;
}

try {
  const apiPort = 40_000 + Math.floor(Math.random() * 10_000);
  // BENCH_SERVER_FLAGS="--cpu-prof-md --cpu-prof-dir=/tmp/prof" profiles the api (written when it stops).
  const serverFlags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const api = await spawnReady([...serverFlags, join(here, 'server.ts'), String(apiPort), kind, where], {
    BENCH_CACHE: values.cache as string,
  });
  const cookie = api.line.replace(/^ready /, '');
  const apiUrl = `http://127.0.0.1:${apiPort}/api/businesses/listBusinesses`;
  // The bare server answers with the api's own answer, byte for byte.
  const sample = await fetch(apiUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: benchOrigin(),
      cookie,
    },
    body: '{}',
  });
  const sampleBody = await sample.text();
  const rows = (JSON.parse(sampleBody) as { businesses: unknown[] }).businesses.length;
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, sampleBody);

  const barePort = apiPort + 1;
  const bare = await spawnReady([join(here, 'bare.ts'), String(barePort), bodyFile]);
  const floor = await loadOn(bare.proc.pid, `http://127.0.0.1:${barePort}/`);
  bare.proc.kill();
  await bare.proc.exited;

  const measured = await loadOn(api.proc.pid, apiUrl, cookie, kind === 'postgres' ? where : undefined);
  api.proc.kill('SIGTERM');
  await api.proc.exited;

  const fmt = (n: number) => n.toFixed(n < 10 ? 2 : 0);
  console.log(
    `\nbench/rpc ${new Date().toISOString()} — ${kind}, ${values.clients} clients, ${values.seconds} s (+${values.warmup} s warm-up), session cache ${values.cache === '0' ? 'off' : 'on'}, ${values.mode} mode`,
  );
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`listBusinesses answer: ${rows} rows, ${sampleBody.length} bytes\n`);
  const pct = (share: number) => `${Math.round(share * 100)}%`;
  console.log(
    '| server | req/s | p50 ms | p99 ms | max ms | errors | server CPU per request | load generator CPU | ratio to bare |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  console.log(
    `| bare Bun.serve | ${fmt(floor.rps)} | ${fmt(floor.p50)} | ${fmt(floor.p99)} | ${fmt(floor.max)} | ${floor.errors} | ${floor.serverCpuMs.toFixed(3)} ms | ${pct(floor.loadCpu)} | 1 |`,
  );
  console.log(
    `| api listBusinesses (${kind}) | ${fmt(measured.rps)} | ${fmt(measured.p50)} | ${fmt(measured.p99)} | ${fmt(measured.max)} | ${measured.errors} | ${measured.serverCpuMs.toFixed(3)} ms${measured.dbCpuMs === undefined ? '' : ` (+ PostgreSQL ${measured.dbCpuMs.toFixed(3)} ms)`} | ${pct(measured.loadCpu)} | **${(measured.rps / floor.rps).toFixed(3)}x** |`,
  );
} finally {
  await dropDatabase?.();
  rmSync(dir, { recursive: true, force: true });
}
