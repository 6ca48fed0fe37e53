/**
 * What the hub benchmarks share (bench/hub/run.ts, bench/hub/verify-pin.ts): the seeded estate of
 * lockers, child processes that say "ready", percentiles of latency samples, and CPU readings from /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { type Db, migrateToLatest } from '../../db/src/index.ts';

export const sha256 = (s: string) => new Bun.CryptoHasher('sha256').update(s).digest('hex');
export const T = Date.UTC(2026, 0, 1);

/** A business, N machines and their access tokens, written straight to the database before the hub starts. */
export async function seed(db: Db, n: number): Promise<{ tokens: string[] }> {
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
export function usage(pid: number): { cpu: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpu, rssMb: Math.round(Number(rss) / 1024) };
}

/** A child's stdout, line by line. */
export class Lines {
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
export function postgresProcesses(): Map<string, number> {
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
export class PostgresCpu {
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
export function machineBusy(): number {
  const [, ...ticks] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) / 100;
}

export const children = new Set<Bun.Subprocess>();
// Stopped from outside (Ctrl-C, `timeout`): take the hub, the echo and the generators down too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill();
    process.exit(1);
  });
}

/** Starts a process and waits for its "ready" line. */
export async function spawnReady(cmd: string[], what: string, ms = 60_000) {
  const child = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'inherit', stdin: 'pipe' });
  children.add(child);
  const lines = new Lines(child.stdout.getReader());
  while ((await lines.next(what, ms)) !== 'ready');
  return { child, lines };
}

export type Percentiles = { p50: number; p99: number; max: number; n: number };

export function percentiles(parts: Float64Array[]): Percentiles {
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
