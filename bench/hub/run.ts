/**
 * Hub benchmark (on demand, not part of `npm test`): N simulated lockers send temperature readings to
 * the machine hub, and the same load goes first to a bare Bun WebSocket echo (the floor: no database,
 * no protocol checks). While the hub is under load a few probe lockers also talk to the echo, so each
 * hub run says what this machine's floor was at that moment. Reports acknowledgement latency p50/p99/max,
 * CPU and memory of the server process, CPU of the load generators, of PostgreSQL and of the whole
 * machine (so other work on it shows), and rows stored against readings
 * sent. Loopback only; every phase is bounded in time.
 *
 *   bun bench/hub/run.ts --db pglite|postgres --lockers 1000 --rate 10 --per-message 10 --seconds 20
 *     [--warmup 5] [--generators 1] [--probes 50] [--only echo|db-echo|hub]
 *
 * PostgreSQL comes from TEST_DATABASE_URL (a fresh database is created and dropped). On PostgreSQL a second
 * baseline runs between the two: bench/hub/db-echo.ts, the bare echo storing the readings in a plain
 * table before it answers, so the hub's own cost is what it adds over that.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDb } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import { machineBusy, type Percentiles, PostgresCpu, percentiles, seed, spawnReady, usage } from './harness.ts';
import type { LoadConfig, LoadResult } from './load.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    lockers: { type: 'string', default: '100' },
    rate: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '5' },
    only: { type: 'string' },
    'per-message': { type: 'string', default: '10' },
    generators: { type: 'string', default: '1' },
    probes: { type: 'string', default: '50' },
  },
});
const kind = values.db === 'postgres' ? 'postgres' : 'pglite';
const lockers = Number(values.lockers);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
/** Readings per TemperatureReadings call: 1 is the worst case; lockers are asked to batch. */
const perMessage = Math.max(1, Number(values['per-message']));
/** Load-generator processes the lockers are split over. */
const generators = Math.max(1, Number(values.generators));
/** Lockers talking to the bare echo while the hub is under load. */
const probes = Math.max(0, Number(values.probes));

type Result = {
  target: string;
  sent: number;
  acked: number;
  errors: number;
  unanswered: number;
  latency: Percentiles;
  /** The bare echo answering a few probe lockers while the hub is under load: this machine's floor meanwhile. */
  probe?: Percentiles;
  serverCpuPct: number;
  serverRssMb: number;
  generatorCpuPct: number;
  /** Every PostgreSQL process, % of one core. */
  postgresCpuPct: number;
  /** The whole machine, % of all its cores. */
  machineBusyPct: number;
  lagP99: number;
  lagMax: number;
};

/**
 * Splits the lockers over `generators` processes (bench/hub/load.ts), starts them together, samples the
 * server's and the generators' CPU over the measured seconds, and merges their samples.
 */
async function drive(
  target: string,
  url: string,
  tokens: string[],
  serverPid: number,
  probeUrl?: string,
): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'hub-load-'));
  try {
    const gens = await Promise.all(
      Array.from({ length: generators }, async (_, g) => {
        const config: LoadConfig = {
          url,
          tokens: tokens.filter((_, i) => i % generators === g),
          ...(probeUrl ? { probeUrl } : {}),
          probes: Math.ceil(probes / generators),
          rate,
          perMessage,
          warmupSeconds: warmup,
          seconds,
          out: join(dir, `g${g}`),
        };
        await Bun.write(join(dir, `g${g}.json`), JSON.stringify(config));
        return spawnReady(
          [process.execPath, join(import.meta.dir, 'load.ts'), join(dir, `g${g}.json`)],
          `generator ${g}`,
          600_000,
        );
      }),
    );
    for (const { child } of gens) {
      child.stdin.write('go\n');
      child.stdin.flush();
    }
    const cpuOf = () => [
      machineBusy(),
      0,
      ...[serverPid, ...gens.map((g) => g.child.pid)].map((pid) => usage(pid).cpu),
    ];
    await Bun.sleep(warmup * 1000);
    const before = cpuOf();
    const postgres = new PostgresCpu();
    let peakRss = 0;
    const measuredUntil = Date.now() + seconds * 1000;
    while (Date.now() < measuredUntil) {
      peakRss = Math.max(peakRss, usage(serverPid).rssMb);
      postgres.sample();
      await Bun.sleep(250);
    }
    const after = cpuOf();
    after[1] = postgres.used();
    const pct = (i: number) => ((after[i] ?? 0) - (before[i] ?? 0)) / seconds;
    const results = await Promise.all(
      gens.map(async ({ lines }, g) => JSON.parse(await lines.next(`generator ${g}`, 60_000)) as LoadResult),
    );
    for (const { child } of gens) child.stdin.end();
    const read = async (suffix: string) =>
      Promise.all(
        gens.map(async (_, g) => new Float64Array(await Bun.file(join(dir, `g${g}${suffix}`)).arrayBuffer())),
      );
    const sum = (f: (r: LoadResult) => number) => results.reduce((n, r) => n + f(r), 0);
    return {
      target,
      sent: sum((r) => r.sent),
      acked: sum((r) => r.acked),
      errors: sum((r) => r.errors),
      unanswered: sum((r) => r.unanswered),
      latency: percentiles(await read('.lat')),
      ...(probeUrl && probes > 0 ? { probe: percentiles(await read('.probe')) } : {}),
      machineBusyPct: Math.round((pct(0) * 100) / availableParallelism()),
      postgresCpuPct: Math.round(pct(1) * 100),
      serverCpuPct: Math.round(pct(2) * 100),
      serverRssMb: peakRss,
      generatorCpuPct: Math.round(gens.reduce((n, _, g) => n + pct(g + 3), 0) * 100),
      lagP99: Math.round(Math.max(...results.map((r) => r.lagP99)) * 100) / 100,
      lagMax: Math.round(Math.max(...results.map((r) => r.lagMax)) * 100) / 100,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '?';
  console.log(
    `${new Date().toISOString()} · ${availableParallelism()} × ${cpu} · load average ${load} · Bun ${Bun.version}`,
  );
  const results: (Result & { rowsStored?: number })[] = [];
  const port = 20000 + Math.floor(Math.random() * 20000);
  const echo = await spawnReady([process.execPath, join(import.meta.dir, 'echo.ts'), String(port + 1)], 'echo');
  const echoUrl = `ws://127.0.0.1:${port + 1}`;
  try {
    if (values.only !== 'hub') {
      const dummies = Array.from({ length: lockers }, () => 'x');
      results.push(await drive('bare Bun echo', echoUrl, dummies, echo.child.pid));
    }
    if (kind === 'postgres' && (values.only === undefined || values.only === 'db-echo')) {
      results.push(await driveDbEcho(port + 2, echoUrl));
    }
    if (values.only === undefined || values.only === 'hub') results.push(await driveHub(port, echoUrl));
  } finally {
    echo.child.kill();
  }
  console.log(
    `\n${lockers} lockers × ${rate} readings/s, ${perMessage} a message, for ${seconds} s (after ${warmup} s warm-up), ${kind}, ${generators} generator process(es), ${probes} echo probes beside the hub, READINGS_COMMIT=${process.env.READINGS_COMMIT || 'fast'}`,
  );
  console.log(
    '| target | readings sent | acked | errors | unanswered | rows stored | p50 ms | p99 ms | max ms | echo beside it p50/p99 ms | server CPU | server RSS | generator CPU | PostgreSQL CPU | machine busy | send lag p99/max ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const probe = r.probe ? `${r.probe.p50} / ${r.probe.p99}` : '–';
    console.log(
      `| ${r.target} | ${r.sent} | ${r.acked} | ${r.errors} | ${r.unanswered} | ${r.rowsStored ?? '–'} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${probe} | ${r.serverCpuPct}% | ${r.serverRssMb} MB | ${r.generatorCpuPct}% | ${r.postgresCpuPct}% | ${r.machineBusyPct}% | ${r.lagP99} / ${r.lagMax} |`,
    );
  }
  process.exit(0);
}

/**
 * The second baseline (PostgreSQL only): bench/hub/db-echo.ts, a bare WebSocket server that stores the
 * readings in a plain table before answering, on a fresh database of its own; rows stored are counted.
 */
async function driveDbEcho(port: number, echoUrl: string): Promise<Result & { rowsStored: number }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('set TEST_DATABASE_URL for --db postgres');
  const fresh = await createFreshPostgresDatabase(base);
  try {
    const server = await spawnReady(
      [process.execPath, join(import.meta.dir, 'db-echo.ts'), String(port), fresh.url],
      'db-echo',
    );
    let result: Result;
    try {
      const dummies = Array.from({ length: lockers }, () => 'x');
      result = await drive('bare echo + PostgreSQL', `ws://127.0.0.1:${port}`, dummies, server.child.pid, echoUrl);
    } finally {
      server.child.kill('SIGTERM');
      await server.child.exited;
    }
    const counting = new pg.Client({ connectionString: fresh.url });
    await counting.connect();
    const { rows } = await counting.query<{ n: string }>('select count(*) as n from bare_readings');
    await counting.end();
    return { ...result, rowsStored: Number(rows[0]?.n ?? 0) };
  } finally {
    await fresh.drop();
  }
}

/** A fresh database, seeded; the hub in its own process; the load; then the rows stored are counted. */
async function driveHub(port: number, echoUrl: string): Promise<Result & { rowsStored: number }> {
  let where: string;
  let cleanup: () => Promise<void>;
  if (kind === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('set TEST_DATABASE_URL for --db postgres');
    const fresh = await createFreshPostgresDatabase(base);
    where = fresh.url;
    cleanup = fresh.drop;
  } else {
    where = mkdtempSync(join(tmpdir(), 'hub-bench-'));
    cleanup = async () => rmSync(where, { recursive: true, force: true });
  }
  const open = () => createDb(kind === 'postgres' ? { kind, url: where } : { kind, dataDir: where });
  try {
    const seeding = await open();
    const { tokens } = await seed(seeding, lockers);
    await seeding.close();
    const flags = process.env.BENCH_BUN_FLAGS ? process.env.BENCH_BUN_FLAGS.split(' ') : [];
    const hub = await spawnReady(
      [process.execPath, ...flags, join(import.meta.dir, 'server.ts'), String(port), kind, where],
      'hub',
    );
    let result: Result;
    try {
      result = await drive(`hub on ${kind}`, `ws://127.0.0.1:${port}/machine`, tokens, hub.child.pid, echoUrl);
    } finally {
      hub.child.kill('SIGTERM');
      await hub.child.exited;
    }
    const counting = await open();
    const row = await counting.db
      .selectFrom('temperature_readings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await counting.close();
    return { ...result, rowsStored: Number(row.n) };
  } finally {
    await cleanup();
  }
}

await main();
