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
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDb, type Db, migrateToLatest } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
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

const sha256 = (s: string) => new Bun.CryptoHasher('sha256').update(s).digest('hex');
const T = Date.UTC(2026, 0, 1);

/** A business, N machines and their access tokens, written straight to the database before the hub starts. */
async function seed(db: Db, n: number): Promise<{ tokens: string[] }> {
  await migrateToLatest(db.db);
  await db.db
    .insertInto('businesses')
    .values({
      id: 'bench',
      name: 'Bench Pharmacy',
      email: null,
      address_line1: null,
      address_line2: null,
      address_line3: null,
      post_town: null,
      postcode: null,
      group_id: null,
      archived_at: null,
      archived_by_id: null,
      archived_by_display: null,
      logo_path: null,
      logo_background_color: null,
      created: T,
      updated: T,
    })
    .execute();
  const tokens: string[] = [];
  for (let start = 0; start < n; start += 1000) {
    const ids = Array.from({ length: Math.min(1000, n - start) }, (_, i) => start + i);
    await db.db
      .insertInto('machines')
      .values(
        ids.map((i) => ({
          id: `m${i}`,
          business_id: 'bench',
          name: `Locker ${i}`,
          number_of_slots: 24,
          archived_at: null,
          archived_by_id: null,
          archived_by_display: null,
          out_of_order_at: null,
          out_of_order_by_id: null,
          out_of_order_by_display: null,
          temperature_average: null,
          temperature_last_excursion_at: null,
          temperature_updated: null,
          last_seen: null,
          created: T,
          updated: T,
        })),
      )
      .execute();
    const batch = ids.map((i) => ({ i, token: `bench-token-${i}-${crypto.randomUUID()}` }));
    tokens.push(...batch.map((b) => b.token));
    await db.db
      .insertInto('machine_credentials')
      .values(
        batch.map(({ i, token }) => ({
          id: `c${i}`,
          business_id: 'bench',
          machine_id: `m${i}`,
          access_token_hash: sha256(token),
          access_token_expires_at: Date.now() + 24 * 3600_000,
          refresh_token_hash: sha256(`r-${token}`),
          refresh_token_expires_at: null,
          access_token_encrypted: null,
          refresh_token_encrypted: null,
          revoked_at: null,
          created: T,
          updated: T,
        })),
      )
      .execute();
  }
  return { tokens };
}

/** utime + stime of a process, in seconds, and its resident memory in MB (Linux /proc). */
function usage(pid: number): { cpu: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpu, rssMb: Math.round(Number(rss) / 1024) };
}

/** A child's stdout, line by line. */
class Lines {
  private text = '';
  private readonly decoder = new TextDecoder();
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}
  async next(what: string, ms: number): Promise<string> {
    const deadline = Date.now() + ms;
    while (!this.text.includes('\n')) {
      const { value, done } = await Promise.race([
        this.reader.read(),
        Bun.sleep(Math.max(0, deadline - Date.now())).then(() => {
          throw new Error(`${what}: nothing within ${ms / 1000} s`);
        }),
      ]);
      if (done) throw new Error(`${what}: exited`);
      this.text += this.decoder.decode(value);
    }
    const at = this.text.indexOf('\n');
    const line = this.text.slice(0, at);
    this.text = this.text.slice(at + 1);
    return line;
  }
}

/** CPU seconds of each PostgreSQL process now (the server's backends, WAL writer, checkpointer…), Linux /proc. */
function postgresProcesses(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The process ended meanwhile.
    }
  }
  return cpu;
}

/**
 * PostgreSQL's CPU over a phase, sampled as it goes: a backend that ends during the phase (a pool closes
 * an idle connection after 10 s) keeps what it used up to its last sample, instead of vanishing from a
 * sum taken at the start and the end only.
 */
class PostgresCpu {
  private readonly first = postgresProcesses();
  private readonly last = new Map(this.first);
  sample(): void {
    for (const [pid, cpu] of postgresProcesses()) this.last.set(pid, cpu);
  }
  /** CPU seconds used since the meter started. */
  used(): number {
    this.sample();
    let total = 0;
    for (const [pid, cpu] of this.last) total += cpu - (this.first.get(pid) ?? 0);
    return total;
  }
}

/** Busy CPU seconds of the whole machine, all cores (/proc/stat): shows whatever else was running. */
function machineBusy(): number {
  const [, ...ticks] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) / 100;
}

const children = new Set<Bun.Subprocess>();
// Stopped from outside (Ctrl-C, `timeout`): take the hub, the echo and the generators down too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill();
    process.exit(1);
  });
}

/** Starts a process and waits for its "ready" line. */
async function spawnReady(cmd: string[], what: string, ms = 60_000) {
  const child = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'inherit', stdin: 'pipe' });
  children.add(child);
  const lines = new Lines(child.stdout.getReader());
  while ((await lines.next(what, ms)) !== 'ready');
  return { child, lines };
}

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

type Percentiles = { p50: number; p99: number; max: number; n: number };

function percentiles(parts: Float64Array[]): Percentiles {
  const all = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  all.sort();
  const pick = (q: number) => Math.round((all[Math.min(all.length - 1, Math.floor(all.length * q))] ?? 0) * 100) / 100;
  return { p50: pick(0.5), p99: pick(0.99), max: pick(1), n: all.length };
}

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
