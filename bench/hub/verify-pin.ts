/**
 * VerifyPin under load (on demand, never part of `npm test`): N lockers connected to the real
 * hub over WebSocket report TemperatureReadings (bench/hub/load.ts, as bench/hub/run.ts drives them)
 * while patients type PINs at V of them (bench/hub/pin-load.ts: those V report readings too). Each PIN
 * locker's machine holds loaded orders with known PINs and their bags; a PIN is right (Accepted) or, one
 * in `--wrong-every`, a PIN no order has (Invalid). Latency is VerifyPin sent to answered.
 * The baseline, in the same run: the same lockers, the same readings and the same VerifyPin stream
 * against a bare Bun WebSocket echo (bench/hub/echo.ts: no database, no protocol checks).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/hub/verify-pin.ts
 *     [--db postgres|pglite] [--lockers 1000] [--pin-lockers 100] [--rate 0.1] [--per-message 6]
 *     [--pins 20] [--wrong-every 4] [--orders 4] [--seconds 20] [--warmup 5]
 *
 * The default readings are the protocol's (docs/LOCKER-PROTOCOL.md: a reading every 10 s, sent six at a
 * time once a minute); `--rate 10 --per-message 10` is bench/hub's goal load, sixty times that.
 * PostgreSQL: a fresh database beside the one in the URL, dropped afterwards.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createDb, type Db } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import { pinLookup } from '../../packages/api/src/areas/orders/pin.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import { children, machineBusy, type Percentiles, percentiles, seed, spawnReady } from './harness.ts';
import type { LoadConfig, LoadResult } from './load.ts';
import type { PinLoadConfig, PinLoadResult } from './pin-load.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    lockers: { type: 'string', default: '1000' },
    'pin-lockers': { type: 'string', default: '100' },
    rate: { type: 'string', default: '0.1' },
    'per-message': { type: 'string', default: '6' },
    pins: { type: 'string', default: '20' },
    'wrong-every': { type: 'string', default: '4' },
    orders: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
  },
});
const kind = values.db === 'pglite' ? 'pglite' : 'postgres';
const lockers = Number(values.lockers);
const pinLockers = Math.min(lockers, Number(values['pin-lockers']));
const ordersPerLocker = Number(values.orders);
const common = {
  rate: Number(values.rate),
  perMessage: Number(values['per-message']),
  warmupSeconds: Number(values.warmup),
  seconds: Number(values.seconds),
};
const pinsPerSecond = Number(values.pins);
const wrongEvery = Number(values['wrong-every']);
const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

/** The hub's config as bench/hub/server.ts loads it: the same SECRETS_KEY (the test default), so PINs match. */
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });

/**
 * The last `pinLockers` machines each get `ordersPerLocker` loaded orders, each with its bag in a slot and
 * a PIN starting with 1 (pin-load.ts's wrong PINs start with 9). Returns every machine's PINs.
 */
async function seedOrders(db: Db, n: number): Promise<string[][]> {
  const now = Date.now();
  const pins: string[][] = Array.from({ length: n }, () => []);
  const orders: unknown[] = [];
  const bags: unknown[] = [];
  for (let m = n - pinLockers; m < n; m++) {
    for (let k = 0; k < ordersPerLocker; k++) {
      const pin = `1${String(m).padStart(4, '0')}${String(k).padStart(3, '0')}`;
      pins[m]?.push(pin);
      const id = `o-${m}-${k}`;
      const barcode = `BC-${m}-${k}`;
      orders.push(
        sql`(${id}, ${`${m}-${k}`}, 'bench', 'Bench Pharmacy', 'patient', 'Pat Bench', ${barcode}, ${`m${m}`}, ${`Locker ${m}`},
          'loaded', 7, ${now + 7 * 86_400_000}, 'portal', ${now}, ${now}, ${pinLookup(config.secretsKey, pin)})`,
      );
      bags.push(sql`(${`bag-${m}-${k}`}, 'bench', ${barcode}, ${String(k + 1)}, ${`m${m}`}, ${id}, ${now}, ${now})`);
    }
  }
  await sql`insert into patients (id, business_id, display_id, given_name, family_name, full_name, created, updated)
    values ('patient', 'bench', 'D1', 'Pat', 'Bench', 'Pat Bench', ${now}, ${now})`.execute(db.db);
  await sql`insert into orders (id, reference, business_id, business_name, patient_id, patient_name, barcode,
    machine_id, machine_name, status, collection_window, expires_at, created_via, created, updated, pin_lookup)
    values ${sql.join(orders)}`.execute(db.db);
  await sql`insert into bags (id, business_id, barcode, location, machine_id, order_id, created, updated)
    values ${sql.join(bags)}`.execute(db.db);
  return pins;
}

type Phase = {
  target: string;
  pin: Percentiles;
  /** The bare echo answering a copy of each VerifyPin sent to the hub, at the same moment. */
  probe?: Percentiles;
  readings: Percentiles;
  pins: PinLoadResult;
  readingsLoad: LoadResult;
  machineBusyPct: number;
  loadAverage: string;
};

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Both generators against `url`; the readings lockers are the first N − V tokens, the PIN lockers the rest. */
async function drive(
  target: string,
  url: string,
  tokens: string[],
  pins: string[][],
  check: boolean,
  probeUrl?: string,
): Promise<Phase> {
  const dir = mkdtempSync(join(tmpdir(), 'verify-pin-'));
  try {
    const readingsConfig: LoadConfig = {
      url,
      tokens: tokens.slice(0, lockers - pinLockers),
      probes: 0,
      ...common,
      out: join(dir, 'readings'),
    };
    const pinConfig: PinLoadConfig = {
      url,
      lockers: tokens.slice(lockers - pinLockers).map((token, i) => ({
        token,
        pins: pins[lockers - pinLockers + i] ?? [],
      })),
      pinsPerSecond,
      wrongEvery,
      check,
      ...(probeUrl ? { probeUrl } : {}),
      ...common,
      out: join(dir, 'pins'),
    };
    await Bun.write(join(dir, 'readings.json'), JSON.stringify(readingsConfig));
    await Bun.write(join(dir, 'pins.json'), JSON.stringify(pinConfig));
    const gens = [
      await spawnReady(
        [process.execPath, join(import.meta.dir, 'load.ts'), join(dir, 'readings.json')],
        'readings',
        600_000,
      ),
      await spawnReady(
        [process.execPath, join(import.meta.dir, 'pin-load.ts'), join(dir, 'pins.json')],
        'PINs',
        600_000,
      ),
    ];
    for (const { child } of gens) {
      child.stdin.write('go\n');
      child.stdin.flush();
    }
    await Bun.sleep(common.warmupSeconds * 1000);
    const busy0 = machineBusy();
    await Bun.sleep(common.seconds * 1000);
    const busy = machineBusy() - busy0;
    const load = loadAverage();
    const [readingsLoad, pinsResult] = await Promise.all(
      gens.map(async ({ lines }, g) => JSON.parse(await lines.next(`generator ${g}`, 60_000))),
    );
    for (const { child } of gens) child.stdin.end();
    const samples = async (file: string) => new Float64Array(await Bun.file(join(dir, file)).arrayBuffer());
    return {
      target,
      pin: percentiles([await samples('pins.pin')]),
      ...(probeUrl ? { probe: percentiles([await samples('pins.probe')]) } : {}),
      readings: percentiles([await samples('readings.lat'), await samples('pins.lat')]),
      pins: pinsResult as PinLoadResult,
      readingsLoad: readingsLoad as LoadResult,
      machineBusyPct: Math.round((busy * 100) / common.seconds / availableParallelism()),
      loadAverage: load,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh database with the lockers and the PIN lockers' orders; the hub in its own process; the load. */
async function driveHub(port: number, echoUrl: string): Promise<Phase & { attempts: number }> {
  let where: string;
  let cleanup: () => Promise<void>;
  if (kind === 'postgres') {
    if (!base) throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
    const fresh = await createFreshPostgresDatabase(base);
    where = fresh.url;
    cleanup = fresh.drop;
  } else {
    where = mkdtempSync(join(tmpdir(), 'verify-pin-db-'));
    cleanup = async () => rmSync(where, { recursive: true, force: true });
  }
  const open = () => createDb(kind === 'postgres' ? { kind, url: where } : { kind, dataDir: where });
  try {
    const seeding = await open();
    const { tokens } = await seed(seeding, lockers);
    const pins = await seedOrders(seeding, lockers);
    await seeding.close();
    const hub = await spawnReady(
      [process.execPath, join(import.meta.dir, 'server.ts'), String(port), kind, where],
      'hub',
    );
    let phase: Phase;
    try {
      phase = await drive(`hub on ${kind}`, `ws://127.0.0.1:${port}/machine`, tokens, pins, true, echoUrl);
    } finally {
      hub.child.kill('SIGTERM');
      await hub.child.exited;
    }
    const counting = await open();
    const row = await counting.db
      .selectFrom('pin_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await counting.close();
    return { ...phase, attempts: Number(row.n) };
  } finally {
    await cleanup();
  }
}

async function main() {
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '?';
  console.log(`${new Date().toISOString()} · ${availableParallelism()} × ${cpu} · load average ${loadAverage()}`);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const echo = await spawnReady([process.execPath, join(import.meta.dir, 'echo.ts'), String(port + 1)], 'echo');
  const phases: Phase[] = [];
  let attempts = 0;
  try {
    const dummies = Array.from({ length: lockers }, () => 'x');
    const noPins = Array.from({ length: lockers }, (_, m) => (m >= lockers - pinLockers ? ['10000000'] : []));
    phases.push(await drive('bare Bun echo', `ws://127.0.0.1:${port + 1}`, dummies, noPins, false));
    const hub = await driveHub(port, `ws://127.0.0.1:${port + 1}`);
    attempts = hub.attempts;
    phases.push(hub);
  } finally {
    echo.child.kill();
    for (const child of children) child.kill();
  }
  const [bare, hub] = phases as [Phase, Phase];
  console.log(
    `\n${lockers} lockers reporting ${common.rate} readings/s (${common.perMessage} a call), ${pinLockers} of them taking ${pinsPerSecond} VerifyPin/s in all (1 in ${wrongEvery} wrong), ${ordersPerLocker} loaded orders each; ${common.seconds} s after ${common.warmupSeconds} s warm-up; ${kind}`,
  );
  console.log(
    '\n| target | VerifyPin sent | as expected | other answers | VerifyPin p50 / **p99** / max | echo beside it, same calls, p50 / p99 | readings p50 / p99 | machine busy | load average after |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const p of phases) {
    console.log(
      `| ${p.target} | ${p.pins.pinsSent} | ${p.pins.pinsAsExpected} | ${JSON.stringify(p.pins.pinsUnexpected)} | ${p.pin.p50} / **${p.pin.p99}** / ${p.pin.max} ms | ${p.probe ? `${p.probe.p50} / ${p.probe.p99} ms` : '–'} | ${p.readings.p50} / ${p.readings.p99} ms | ${p.machineBusyPct}% | ${p.loadAverage} |`,
    );
  }
  console.log(
    `\nhub ÷ bare: p50 ${(hub.pin.p50 / bare.pin.p50).toFixed(1)}×, p99 ${(hub.pin.p99 / bare.pin.p99).toFixed(1)}×; goal VerifyPin p99 ≤ 20 ms: ${hub.pin.p99 <= 20 ? 'met' : 'NOT met'}; pin_attempts rows ${attempts} (VerifyPin sent ${hub.pins.pinsSent}); readings unanswered ${hub.readingsLoad.unanswered}, errors ${hub.readingsLoad.errors + hub.pins.readingsErrors}`,
  );
  process.exit(0);
}

await main();
