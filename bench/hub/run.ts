/**
 * Hub benchmark (on demand, not part of `npm test`): N simulated lockers send temperature readings to
 * the machine hub, one reading per TemperatureReadings call, and the same load goes to a bare Bun
 * WebSocket echo in the same run. Reports acknowledgement latency p50/p99, the server process's CPU
 * and memory, and checks rows stored = readings sent. Loopback only; every phase is bounded in time.
 *
 *   bun bench/hub/run.ts --db pglite|postgres --lockers 1000 --rate 10 --seconds 20
 *
 * PostgreSQL comes from TEST_DATABASE_URL (a fresh database is created and dropped).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, type Db, migrateToLatest } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    lockers: { type: 'string', default: '100' },
    rate: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    only: { type: 'string' },
    'per-message': { type: 'string', default: '1' },
  },
});
const kind = values.db === 'postgres' ? 'postgres' : 'pglite';
const lockers = Number(values.lockers);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
/** Readings per TemperatureReadings call: 1 is the worst case; lockers are asked to batch. */
const perMessage = Math.max(1, Number(values['per-message']));

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

async function spawnReady(cmd: string[]): Promise<Bun.Subprocess<'ignore', 'pipe', 'inherit'>> {
  const child = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'inherit', stdin: 'ignore' });
  const reader = child.stdout.getReader();
  const deadline = Date.now() + 60_000;
  let text = '';
  while (!text.includes('ready')) {
    if (Date.now() > deadline) throw new Error(`${cmd.join(' ')} did not start`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`${cmd.join(' ')} exited`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return child;
}

type Result = {
  target: string;
  sent: number;
  acked: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  serverCpuPct: number;
  serverRssMb: number;
};

/** Connects N lockers, boots them, then sends `rate` readings a second each for `seconds`, open loop. */
async function drive(url: string, tokens: string[], pid: number, target: string): Promise<Result> {
  const sockets: WebSocket[] = [];
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  let acked = 0;
  let errors = 0;
  const bootWaits = new Map<string, () => void>();
  for (let start = 0; start < tokens.length; start += 200) {
    await Promise.all(
      tokens.slice(start, start + 200).map(
        (token, j) =>
          new Promise<void>((resolve, reject) => {
            const i = start + j;
            const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } } as never);
            ws.onopen = () => {
              bootWaits.set(`b${i}`, resolve);
              ws.send(
                JSON.stringify([2, `b${i}`, 'BootNotification', { vendor: 'bench', model: 'b', firmwareVersion: '1' }]),
              );
            };
            ws.onerror = () => reject(new Error(`locker ${i} could not connect to ${url}`));
            ws.onmessage = (m) => {
              const frame = JSON.parse(String(m.data)) as [number, string];
              const id = frame[1];
              const boot = bootWaits.get(id);
              if (boot) {
                bootWaits.delete(id);
                boot();
                return;
              }
              const t0 = sentAt.get(id);
              if (t0 === undefined) return;
              sentAt.delete(id);
              if (frame[0] === 3) acked += perMessage;
              else errors++;
              if (measuring) latencies.push(performance.now() - t0);
            };
            sockets[i] = ws;
          }),
      ),
    );
  }
  const counters = new Array(tokens.length).fill(0);
  const base = Date.now();
  let sent = 0;
  let due = 0;
  let cursor = 0;
  const perMs = (tokens.length * rate) / perMessage / 1000;
  const begin = performance.now();
  let before = usage(pid);
  let peakRss = 0;
  const total = warmup + seconds;
  await new Promise<void>((resolve) => {
    let last = begin;
    const tick = setInterval(() => {
      const now = performance.now();
      if (!measuring && now - begin >= warmup * 1000) {
        measuring = true;
        before = usage(pid);
      }
      if (now - begin >= total * 1000) {
        clearInterval(tick);
        resolve();
        return;
      }
      due += (now - last) * perMs;
      last = now;
      while (due >= 1) {
        due--;
        const i = cursor;
        cursor = (cursor + 1) % tokens.length;
        const n = ++counters[i];
        const id = `r${i}-${n}`;
        const readings = Array.from({ length: perMessage }, (_, k) => ({
          created: base + n * perMessage + k,
          value: 19 + ((n + k) % 30) / 10,
        }));
        sentAt.set(id, performance.now());
        sockets[i]?.send(
          JSON.stringify([2, id, 'TemperatureReadings', { eventId: id, seq: n, created: base, readings }]),
        );
        sent += perMessage;
      }
      peakRss = Math.max(peakRss, usage(pid).rssMb);
    }, 5);
  });
  const after = usage(pid);
  // Let the last acknowledgements arrive (bounded).
  const drainUntil = Date.now() + 15_000;
  while (sentAt.size > 0 && Date.now() < drainUntil) await Bun.sleep(20);
  for (const ws of sockets) ws?.close();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0) * 100) / 100;
  return {
    target,
    sent,
    acked,
    errors,
    p50: pct(0.5),
    p99: pct(0.99),
    max: pct(1),
    serverCpuPct: Math.round(((after.cpu - before.cpu) / seconds) * 100),
    serverRssMb: Math.max(peakRss, after.rssMb),
  };
}

async function main() {
  const results: (Result & { rowsStored?: number })[] = [];
  const port = 20000 + Math.floor(Math.random() * 20000);
  if (values.only !== 'hub') {
    const echo = await spawnReady([process.execPath, join(import.meta.dir, 'echo.ts'), String(port + 1)]);
    try {
      results.push(
        await drive(
          `ws://127.0.0.1:${port + 1}`,
          Array.from({ length: lockers }, () => 'x'),
          echo.pid,
          'bare Bun echo',
        ),
      );
    } finally {
      echo.kill();
    }
  }
  if (values.only !== 'echo') {
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
    try {
      const seeding = await createDb(kind === 'postgres' ? { kind, url: where } : { kind, dataDir: where });
      const { tokens } = await seed(seeding, lockers);
      await seeding.close();
      const flags = process.env.BENCH_BUN_FLAGS ? process.env.BENCH_BUN_FLAGS.split(' ') : [];
      const hub = await spawnReady([
        process.execPath,
        ...flags,
        join(import.meta.dir, 'server.ts'),
        String(port),
        kind,
        where,
      ]);
      let result: Result;
      try {
        result = await drive(`ws://127.0.0.1:${port}/machine`, tokens, hub.pid, `hub on ${kind}`);
      } finally {
        hub.kill('SIGTERM');
        await hub.exited;
      }
      const counting = await createDb(kind === 'postgres' ? { kind, url: where } : { kind, dataDir: where });
      const row = await counting.db
        .selectFrom('temperature_readings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await counting.close();
      results.push({ ...result, rowsStored: Number(row.n) });
    } finally {
      await cleanup();
    }
  }
  console.log(
    `\n${lockers} lockers × ${rate} readings/s, ${perMessage} a message, for ${seconds}s (after ${warmup}s warm-up), ${kind}`,
  );
  console.log(
    '| target | readings sent | acked | errors | rows stored | p50 ms | p99 ms | max ms | server CPU | server RSS |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.target} | ${r.sent} | ${r.acked} | ${r.errors} | ${r.rowsStored ?? '–'} | ${r.p50} | ${r.p99} | ${r.max} | ${r.serverCpuPct}% | ${r.serverRssMb} MB |`,
    );
  }
  process.exit(0);
}

await main();
