/**
 * bench/cluster: do hub messages and RPC reads scale with api processes behind HAProxy?
 * On demand, never part of `npm test`.
 *
 * One fresh PostgreSQL database (beside BENCH_DATABASE_URL's or TEST_DATABASE_URL's). `npm run cluster`
 * (scripts/cluster.mjs) starts with 1 process, then with 3 (`--sizes 1,3`). With 1, each load runs twice:
 * straight to the api process (the **baseline**: no balancer) and through HAProxy; with 3, through HAProxy.
 * The loads are the existing generators, each in its own process:
 *   - RPC reads: bench/rpc/load.ts, `businesses/listBusinesses` (a support user's cookie), `--clients`
 *     keep-alive clients, closed loop (requests a second), or open loop at `--rpc-rate` requests a second
 *     (below what one process serves, so that the machine is not saturated and CPU per call compares);
 *   - hub messages: bench/hub/load.ts, `--lockers` lockers sending TemperatureReadings of `--per-message`
 *     readings at `--rate` calls a second each, open loop: calls acknowledged a second, latency.
 * Per target it reads from /proc, over the measured seconds only (not the warm-up), the CPU of every api
 * process, of HAProxy and of PostgreSQL per call (the per-process cost), the api processes' memory, and
 * the whole machine's busy share (all cores). `--mode production` runs the api processes as production
 * does (no output check against the contract; an https address the load names as its origin).
 * `--per-process`: the offered rates (`--rpc-rate`, `--rate`) are each process's, so N processes are
 * offered N times what one is (each at one process's rate): whether processes add up, apart from what a
 * process's cost does at a lower rate of its own.
 *
 *   bun bench/cluster/run.ts [--sizes 1,3] [--only rpc|hub] [--clients 64] [--rpc-rate 0] [--seconds 10]
 *     [--warmup 3] [--lockers 1000] [--rate 20] [--per-message 1] [--mode test|production] [--per-process]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';
import { type RunningCluster, startCluster } from '../../scripts/cluster-kit.ts';
import { Lines, machineBusy, PostgresCpu, percentiles, seed, spawnReady, usage } from '../hub/harness.ts';
import type { LoadConfig, LoadResult } from '../hub/load.ts';
import { seedBusinesses } from '../rpc/fixture.ts';
import { benchApiEnv } from '../rpc/mode.ts';

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
    'rpc-rate': { type: 'string', default: '0' },
    mode: { type: 'string', default: 'test' },
    'per-process': { type: 'boolean', default: false },
  },
});
// The load's origin and the api's PUBLIC_URL agree through BENCH_MODE (bench/rpc/mode.ts).
if (values.mode === 'production') process.env.BENCH_MODE = 'production';
const apiEnv = benchApiEnv();
const sizes = values.sizes.split(',').map(Number);
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const lockers = Number(values.lockers);
/** What a size's processes are offered together: each process's rate times their number with --per-process. */
const offered = (rate: number, size: number) => (values['per-process'] ? rate * size : rate);
const base =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
type Cost = { apiCpuMs: number; balancerCpuMs: number; dbCpuMs: number; apiRssMb: number; machineBusyPct: number };
type Measured = Cost & { target: string; perSecond: number; p50: number; p99: number; errors: number; extra: string };

/**
 * CPU of the api processes, HAProxy and PostgreSQL, and the machine, from now (the measured seconds'
 * start) to `stop`; per call of the `calls` made meanwhile.
 */
function meter(cluster: RunningCluster) {
  const apiPids = [...cluster.apis.values()];
  const read = () => ({
    api: apiPids.reduce((n, p) => n + usage(p).cpu, 0),
    balancer: usage(cluster.balancerPid).cpu,
    machine: machineBusy(),
    at: performance.now(),
  });
  const before = read();
  const db = new PostgresCpu();
  const sampler = setInterval(() => db.sample(), 1000);
  return {
    stop(calls: number): Cost {
      clearInterval(sampler);
      const after = read();
      const n = Math.max(1, calls);
      return {
        apiCpuMs: ((after.api - before.api) * 1000) / n,
        balancerCpuMs: ((after.balancer - before.balancer) * 1000) / n,
        dbCpuMs: (db.used() * 1000) / n,
        apiRssMb: apiPids.reduce((m, p) => m + usage(p).rssMb, 0),
        machineBusyPct: Math.round(
          ((after.machine - before.machine) / ((after.at - before.at) / 1000) / availableParallelism()) * 100,
        ),
      };
    },
  };
}

async function rpc(
  cluster: RunningCluster,
  target: string,
  url: string,
  cookie: string,
  size: number,
): Promise<Measured> {
  type Out = { requests: number; errors: number; skipped: number; rps: number; p50: number; p99: number };
  const rate = offered(Number(values['rpc-rate']), size);
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
      String(rate),
    ],
    // process.env as set above (BENCH_MODE): Bun.spawn's default is the environment at start.
    { stdout: 'pipe', stderr: 'inherit', env: { ...process.env } },
  );
  const lines = new Lines(proc.stdout.getReader());
  const limit = (warmup + seconds + 60) * 1000;
  while ((await lines.next('rpc load', limit)) !== 'measure');
  const cpu = meter(cluster);
  while ((await lines.next('rpc load', limit)) !== 'measured');
  const result = JSON.parse(await lines.next('rpc load', limit)) as Out;
  await proc.exited;
  return {
    target,
    ...cpu.stop(result.requests),
    perSecond: result.rps,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
    extra: rate > 0 ? `${rate}/s offered, ${result.skipped} skipped` : `${values.clients} clients`,
  };
}

async function hub(
  cluster: RunningCluster,
  target: string,
  url: string,
  tokens: string[],
  size: number,
): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-hub-'));
  const perMessage = Number(values['per-message']);
  const rate = offered(Number(values.rate), size);
  try {
    const config: LoadConfig = {
      url: `${url.replace(/^http/, 'ws')}/machine`,
      tokens,
      probes: 0,
      rate,
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
    // The generator is open loop: the calls in the measured seconds are those it was told to send then.
    gen.child.stdin.write('go\n');
    gen.child.stdin.flush();
    await Bun.sleep(warmup * 1000);
    const cpu = meter(cluster);
    await Bun.sleep(seconds * 1000);
    const cost = cpu.stop((lockers * rate * seconds) / perMessage);
    const result = JSON.parse(await gen.lines.next('hub load', 60_000)) as LoadResult;
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
      extra: `${lockers} × ${rate}/s offered, ${result.unanswered} unanswered`,
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
      env: apiEnv,
    });
    try {
      if (!cookie) {
        const opened = await createDb({ kind: 'postgres', url: fresh.url, max: 2 });
        ({ tokens } = await seed(opened, lockers));
        const now = Date.now();
        await seedBusinesses(opened.db, now);
        ({ cookie } = await signInTestUser(opened.db, now, { support: true }));
        await opened.close();
      }
      const targets: [string, string][] = [
        [`${size} process${size > 1 ? 'es' : ''} behind HAProxy`, `http://127.0.0.1:${port}`],
      ];
      if (size === 1) targets.unshift(['1 process, direct (baseline)', `http://127.0.0.1:${port + 1}`]);
      for (const [target, url] of targets) {
        if (values.only !== 'hub') {
          const m = await rpc(cluster, target, url, cookie, size);
          results.push({ load: 'RPC reads (listBusinesses)', m, size });
          console.log(JSON.stringify({ load: 'rpc', ...m }));
        }
        if (values.only !== 'rpc') {
          const m = await hub(cluster, target, url, tokens, size);
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
  `\nbench/cluster ${new Date().toISOString()} — ${values.mode} mode, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${seconds} s measured (+${warmup} s warm-up)\n`,
);
console.log(
  '| load | target | per second | ratio to baseline | p50 / p99 ms | errors | api CPU per call (all processes) | HAProxy CPU per call | PostgreSQL CPU per call | api RSS (all) | machine busy | |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const { load, m } of results) {
  const baseline = results.find((r) => r.load === load && r.m.target.includes('baseline'))?.m.perSecond ?? m.perSecond;
  console.log(
    `| ${load} | ${m.target} | ${Math.round(m.perSecond)} | **${(m.perSecond / baseline).toFixed(2)}x** | ${m.p50.toFixed(1)} / ${m.p99.toFixed(1)} | ${m.errors} | ${m.apiCpuMs.toFixed(3)} ms | ${m.balancerCpuMs.toFixed(3)} ms | ${m.dbCpuMs.toFixed(3)} ms | ${m.apiRssMb} MB | ${m.machineBusyPct}% | ${m.extra} |`,
  );
}
process.exit(0);
