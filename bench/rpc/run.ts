/**
 * RPC read benchmark (on demand, never part of `npm test`): the same load, from a separate process,
 * first against a bare Bun.serve answering the same bytes (the floor of this machine at this moment),
 * then against the api serving `businesses/listBusinesses` (25 rows, a support session's cookie).
 * Reports requests/s, p50/p99/max latency and the api's speed as a ratio to the bare server.
 *
 *   bun bench/rpc/run.ts --db pglite|postgres [--clients 32] [--seconds 10] [--warmup 3] [--cache 1|0]
 *
 * PostgreSQL comes from TEST_DATABASE_URL (a fresh database is created and dropped).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    clients: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    cache: { type: 'string', default: '1' },
  },
});
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
    { stdout: 'pipe', stderr: 'inherit' },
  );
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return JSON.parse(out.trim()) as {
    requests: number;
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
  const api = await spawnReady([join(here, 'server.ts'), String(apiPort), kind, where], {
    BENCH_CACHE: values.cache as string,
  });
  const cookie = api.line.replace(/^ready /, '');
  const apiUrl = `http://127.0.0.1:${apiPort}/api/businesses/listBusinesses`;
  // The bare server answers with the api's own answer, byte for byte.
  const sample = await fetch(apiUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1', cookie },
    body: '{}',
  });
  const sampleBody = await sample.text();
  const rows = (JSON.parse(sampleBody) as { businesses: unknown[] }).businesses.length;
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, sampleBody);

  const barePort = apiPort + 1;
  const bare = await spawnReady([join(here, 'bare.ts'), String(barePort), bodyFile]);
  const floor = await load(`http://127.0.0.1:${barePort}/`);
  bare.proc.kill();
  await bare.proc.exited;

  const measured = await load(apiUrl, cookie);
  api.proc.kill('SIGTERM');
  await api.proc.exited;

  const fmt = (n: number) => n.toFixed(n < 10 ? 2 : 0);
  console.log(
    `\nbench/rpc ${new Date().toISOString()} — ${kind}, ${values.clients} clients, ${values.seconds} s (+${values.warmup} s warm-up), session cache ${values.cache === '0' ? 'off' : 'on'}`,
  );
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`listBusinesses answer: ${rows} rows, ${sampleBody.length} bytes\n`);
  console.log('| server | req/s | p50 ms | p99 ms | max ms | errors | ratio to bare |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| bare Bun.serve | ${fmt(floor.rps)} | ${fmt(floor.p50)} | ${fmt(floor.p99)} | ${fmt(floor.max)} | ${floor.errors} | 1 |`,
  );
  console.log(
    `| api listBusinesses (${kind}) | ${fmt(measured.rps)} | ${fmt(measured.p50)} | ${fmt(measured.p99)} | ${fmt(measured.max)} | ${measured.errors} | **${(measured.rps / floor.rps).toFixed(3)}x** |`,
  );
} finally {
  await dropDatabase?.();
  rmSync(dir, { recursive: true, force: true });
}
