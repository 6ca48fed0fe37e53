/**
 * bench/cluster: do hub messages and RPC reads scale with api processes behind HAProxy?
 * On demand, never part of `npm test`.
 *
 * One fresh PostgreSQL database (beside BENCH_DATABASE_URL's or TEST_DATABASE_URL's). `npm run cluster`
 * (scripts/cluster.mjs) starts with 1 process, then with 3 (`--sizes 1,3`). With 1, each load runs twice:
 * straight to the api process (the **baseline**: no balancer) and through HAProxy; with 3, through HAProxy.
 * The loads are the existing generators, each in its own process:
 *   - RPC reads: bench/rpc/load.ts, `businesses/listBusinesses` (a support user's cookie), `--clients`
 *     keep-alive clients, closed loop: requests a second;
 *   - hub messages: bench/hub/load.ts, `--lockers` lockers sending TemperatureReadings of `--per-message`
 *     readings at `--rate` calls a second each, open loop: calls acknowledged a second, latency.
 * Per target it reads from /proc the CPU of every api process and of HAProxy per request (the
 * per-process cost), the api processes' memory, and the whole machine's busy share (all cores).
 *
 *   bun bench/cluster/run.ts [--sizes 1,3] [--only rpc|hub] [--clients 64] [--seconds 10] [--warmup 3]
 *     [--lockers 1000] [--rate 20] [--per-message 1]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';
import { type RunningCluster, startCluster } from '../../scripts/cluster-kit.ts';
import { machineBusy, percentiles, seed, spawnReady, usage } from '../hub/harness.ts';
import type { LoadConfig, LoadResult } from '../hub/load.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,3' },
    only: { type: 'string' },
    clients: { type: 'string', default: '64' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    lockers: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '20' },
    'per-message': { type: 'string', default: '1' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const lockers = Number(values.lockers);
const base =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ORIGIN = 'http://127.0.0.1';

type Cost = { apiCpuMs: number; balancerCpuMs: number; apiRssMb: number; machineBusyPct: number };
type Measured = Cost & { target: string; perSecond: number; p50: number; p99: number; errors: number; extra: string };

/** CPU of the api processes and HAProxy, and the machine, around `run`; per unit of `count(result)`. */
async function costed<T>(
  cluster: RunningCluster,
  run: () => Promise<T>,
  count: (r: T) => number,
): Promise<{ result: T } & Cost> {
  const apiPids = [...cluster.apis.values()];
  const cpu = () => ({
    api: apiPids.reduce((n, p) => n + usage(p).cpu, 0),
    balancer: usage(cluster.balancerPid).cpu,
    machine: machineBusy(),
  });
  const before = cpu();
  const t = performance.now();
  const result = await run();
  const elapsed = (performance.now() - t) / 1000;
  const after = cpu();
  const n = Math.max(1, count(result));
  return {
    result,
    apiCpuMs: ((after.api - before.api) * 1000) / n,
    balancerCpuMs: ((after.balancer - before.balancer) * 1000) / n,
    apiRssMb: apiPids.reduce((m, p) => m + usage(p).rssMb, 0),
    machineBusyPct: Math.round(((after.machine - before.machine) / elapsed / availableParallelism()) * 100),
  };
}

async function rpc(cluster: RunningCluster, target: string, url: string, cookie: string): Promise<Measured> {
  type Out = { requests: number; warmupRequests: number; errors: number; rps: number; p50: number; p99: number };
  const { result, ...cost } = await costed(
    cluster,
    async () => {
      const proc = Bun.spawn(
        [
          process.execPath,
          join(import.meta.dir, '../rpc/load.ts'),
          `${url}/api/businesses/listBusinesses`,
          values.clients,
          values.seconds,
          values.warmup,
          cookie,
          '{}',
        ],
        { stdout: 'pipe', stderr: 'inherit' },
      );
      const out = await new Response(proc.stdout).text();
      await proc.exited;
      return JSON.parse(out.trim()) as Out;
    },
    (r) => r.requests + r.warmupRequests,
  );
  return {
    target,
    ...cost,
    perSecond: result.rps,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
    extra: `${values.clients} clients`,
  };
}

async function hub(cluster: RunningCluster, target: string, url: string, tokens: string[]): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-hub-'));
  const perMessage = Number(values['per-message']);
  try {
    const config: LoadConfig = {
      url: `${url.replace(/^http/, 'ws')}/machine`,
      tokens,
      probes: 0,
      rate: Number(values.rate),
      perMessage,
      warmupSeconds: warmup,
      seconds,
      out: join(dir, 'g0'),
    };
    writeFileSync(join(dir, 'g0.json'), JSON.stringify(config));
    const gen = await spawnReady(
      [process.execPath, join(import.meta.dir, '../hub/load.ts'), join(dir, 'g0.json')],
      'hub load',
      120_000,
    );
    const { result, ...cost } = await costed(
      cluster,
      async () => {
        gen.child.stdin.write('go\n');
        gen.child.stdin.flush();
        return JSON.parse(await gen.lines.next('hub load', (warmup + seconds + 60) * 1000)) as LoadResult;
      },
      (r) => r.acked / perMessage,
    );
    gen.child.stdin.end();
    await gen.child.exited;
    const lat = percentiles([new Float64Array(new Uint8Array(readFileSync(join(dir, 'g0.lat'))).buffer)]);
    return {
      target,
      ...cost,
      perSecond: result.acked / perMessage / (warmup + seconds),
      p50: lat.p50,
      p99: lat.p99,
      errors: result.errors + result.unanswered,
      extra: `${lockers} × ${values.rate}/s offered, ${result.unanswered} unanswered`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fresh = await createFreshPostgresDatabase(base);
const results: { load: string; m: Measured; size: number }[] = [];
try {
  let tokens: string[] = [];
  let cookie = '';
  for (const size of sizes) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const cluster = await startCluster({
      databaseUrl: fresh.url,
      size,
      port,
      output: 'ignore',
      env: { PUBLIC_URL: ORIGIN, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    });
    try {
      if (!cookie) {
        const opened = await createDb({ kind: 'postgres', url: fresh.url, max: 2 });
        ({ tokens } = await seed(opened, lockers));
        const now = Date.now();
        await opened.db
          .insertInto('businesses')
          .values(
            Array.from({ length: 200 }, (_, i) => ({
              id: `bench-${String(i).padStart(4, '0')}`,
              name: `Pharmacy ${String(i).padStart(4, '0')}`,
              email: `p${i}@bench.test`,
              created: now,
              updated: now,
            })),
          )
          .execute();
        ({ cookie } = await signInTestUser(opened.db, now, { support: true }));
        await opened.close();
      }
      const targets: [string, string][] = [
        [`${size} process${size > 1 ? 'es' : ''} behind HAProxy`, `http://127.0.0.1:${port}`],
      ];
      if (size === 1) targets.unshift(['1 process, direct (baseline)', `http://127.0.0.1:${port + 1}`]);
      for (const [target, url] of targets) {
        if (values.only !== 'hub') {
          const m = await rpc(cluster, target, url, cookie);
          results.push({ load: 'RPC reads (listBusinesses)', m, size });
          console.log(JSON.stringify({ load: 'rpc', ...m }));
        }
        if (values.only !== 'rpc') {
          const m = await hub(cluster, target, url, tokens);
          results.push({ load: `hub calls (TemperatureReadings × ${values['per-message']})`, m, size });
          console.log(JSON.stringify({ load: 'hub', ...m }));
        }
      }
    } finally {
      await cluster.stop('SIGTERM', 30_000);
    }
  }
} finally {
  await fresh.drop();
}

console.log(
  `\nbench/cluster ${new Date().toISOString()} — ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${seconds} s measured (+${warmup} s warm-up)\n`,
);
console.log(
  '| load | target | per second | ratio to baseline | p50 / p99 ms | errors | api CPU per call (all processes) | HAProxy CPU per call | api RSS (all) | machine busy | |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const { load, m } of results) {
  const baseline = results.find((r) => r.load === load && r.m.target.includes('baseline'))?.m.perSecond ?? m.perSecond;
  console.log(
    `| ${load} | ${m.target} | ${Math.round(m.perSecond)} | **${(m.perSecond / baseline).toFixed(2)}x** | ${m.p50.toFixed(1)} / ${m.p99.toFixed(1)} | ${m.errors} | ${m.apiCpuMs.toFixed(3)} ms | ${m.balancerCpuMs.toFixed(3)} ms | ${m.apiRssMb} MB | ${m.machineBusyPct}% | ${m.extra} |`,
  );
}
process.exit(0);
