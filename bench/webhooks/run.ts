/**
 * bench/webhooks: N webhook deliveries to healthy local receivers, sent by the
 * product's own dispatch jobs (webhooks/dispatch.ts, on the job runner as `runJobs` starts it) from a
 * fresh PostgreSQL database, and, with `--down S`, the same to receivers that go down (connections
 * refused) as the dispatch starts, for S seconds, and then come back: every delivery must arrive exactly once (nothing lost,
 * nothing doubled), none dead, none left pending. On demand only, never part of `npm test`.
 *
 * The receivers run in a child process (so their CPU is not counted against the sender's event loop;
 * the machine's cores are shared all the same): one Bun.serve per receiver, each client of the bench's
 * businesses sending to one of them. Each receiver counts the webhook-ids it answered 2xx for and checks
 * one request in 50 with the `standardwebhooks` library, as a partner's receiver would.
 *
 * Baseline in the same run: the same N bodies, signed the same way, POSTed straight to the same receivers
 * by a bare loop (no database), as many in flight as the product's dispatch jobs have at once.
 *
 * Run from the repo root:
 *   bun bench/webhooks/run.ts [--count 20000] [--clients 8] [--receivers 4] [--down 0]
 *     [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--goal 1000] [--keep]
 * Env: BENCH_DATABASE_URL for --database-url. Exits 1 when a goal is missed.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { createDb, type Database, migrateToLatest } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import type { AppDeps } from '../../packages/api/src/context/deps.ts';
import { recordEvent } from '../../packages/api/src/delivery/webhooks/events.ts';
import { signatureOf, signerOf } from '../../packages/api/src/delivery/webhooks/send.ts';
import { runJobs } from '../../packages/api/src/job-handlers.ts';
import { createSecretBox, newWebhookSecret } from '../../packages/api/src/secrets/secret-box.ts';
import { benchDeps } from '../app-deps.ts';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    clients: { type: 'string', default: '8' },
    receivers: { type: 'string', default: '4' },
    down: { type: 'string', default: '0' },
    'database-url': {
      type: 'string',
      default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
    goal: { type: 'string', default: '1000' },
    keep: { type: 'boolean', default: false },
    // internal: the receivers' child process
    serve: { type: 'string' },
    control: { type: 'string' },
    secrets: { type: 'string' },
  },
});

const POOL = 64; // webhooks/dispatch.ts's default requests in flight per client
const log = (...parts: unknown[]) => console.log(...parts);
const int = (n: number) => Math.round(n).toLocaleString('en-GB');

// --- the receivers (child process) -------------------------------------------------------------------

if (args.serve) {
  const ports = args.serve.split(',').map(Number);
  const hooks = (args.secrets ?? '').split(',').map((s) => new Webhook(s));
  const accepted = new Map<string, number>();
  let requests = 0;
  let verified = 0;
  let badSignatures = 0;
  const receive = async (req: Request) => {
    const body = await req.text();
    const id = req.headers.get('webhook-id') ?? '';
    requests += 1;
    if (requests % 50 === 0) {
      const client = Number(new URL(req.url).pathname.split('/').at(-1));
      try {
        hooks[client]?.verify(body, Object.fromEntries(req.headers));
        verified += 1;
      } catch {
        badSignatures += 1;
      }
    }
    accepted.set(id, (accepted.get(id) ?? 0) + 1);
    return new Response('ok');
  };
  const listen = () => ports.map((port) => Bun.serve({ port, hostname: '127.0.0.1', fetch: receive }));
  let servers = listen();
  Bun.serve({
    port: Number(args.control),
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === '/down') {
        for (const server of servers) server.stop(true);
        setTimeout(
          () => {
            servers = listen();
          },
          Number(url.searchParams.get('seconds')) * 1000,
        );
        return new Response('ok');
      }
      if (url.pathname === '/reset') {
        accepted.clear();
        requests = verified = badSignatures = 0;
        return new Response('ok');
      }
      let duplicates = 0;
      for (const n of accepted.values()) if (n > 1) duplicates += n - 1;
      return Response.json({ requests, unique: accepted.size, duplicates, verified, badSignatures });
    },
  });
  console.log('ready');
} else {
  await main();
}

// --- the bench ---------------------------------------------------------------------------------------

type Stats = { requests: number; unique: number; duplicates: number; verified: number; badSignatures: number };

function freePorts(n: number): number[] {
  const servers = Array.from({ length: n }, () =>
    Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() }),
  );
  const ports = servers.map((s) => s.port as number);
  for (const s of servers) s.stop(true);
  return ports;
}

async function startReceivers(count: number, secrets: string[]) {
  const ports = freePorts(count + 1);
  const control = ports.pop() as number;
  const child = Bun.spawn(
    [
      process.execPath,
      import.meta.path,
      '--serve',
      ports.join(','),
      '--control',
      String(control),
      '--secrets',
      secrets.join(','),
    ],
    { stdout: 'pipe', stderr: 'inherit' },
  );
  const reader = child.stdout.getReader();
  await reader.read(); // "ready"
  const stats = async (): Promise<Stats> => (await fetch(`http://127.0.0.1:${control}/`)).json() as Promise<Stats>;
  const reset = async () => void (await fetch(`http://127.0.0.1:${control}/reset`));
  const goDown = async (seconds: number) => void (await fetch(`http://127.0.0.1:${control}/down?seconds=${seconds}`));
  return { ports, stats, reset, goDown, stop: () => child.kill() };
}

/** A business and its integration client per secret, sending to `urlOf(c)`. */
async function seedClients(db: Kysely<Database>, deps: AppDeps, secrets: string[], urlOf: (c: number) => string) {
  const now = Date.now();
  for (const [c, secret] of secrets.entries()) {
    const businessId = `bench-${c}`;
    await db
      .insertInto('businesses')
      .values({ id: businessId, name: `Bench ${c}`, created: now, updated: now })
      .execute();
    const id = `client-${c}`;
    await db
      .insertInto('integration_clients')
      .values({
        id,
        business_id: businessId,
        name: `Bench PMR ${c}`,
        contact_email: 'bench@pmr.example',
        suppress_patient_messages: false,
        webhook_url: urlOf(c),
        rate_limit: 1200,
        webhook_secret_encrypted: createSecretBox(deps.config.secretsKey).seal(
          secret,
          `integration_clients.webhook_secret:${id}`,
        ),
        period_start: now,
        requests_made: 0,
        created: now,
        updated: now,
      })
      .execute();
  }
}

/** N events spread over the clients, one order each (no ordering wait), recorded 500 to a transaction. */
async function seedEvents(db: Kysely<Database>, count: number, clients: number) {
  const t0 = performance.now();
  for (let start = 0; start < count; start += 500) {
    await db.transaction().execute(async (tx) => {
      for (let i = start; i < Math.min(count, start + 500); i++) {
        await recordEvent(
          tx,
          {
            businessId: `bench-${i % clients}`,
            type: 'order.created',
            orderingKey: `order-${i}`,
            data: { id: `order-${i}`, reference: `R-${i}`, status: 'created', amountPaid: 0 },
          },
          Date.now(),
        );
      }
    });
  }
  return performance.now() - t0;
}

async function progress(db: Kysely<Database>) {
  const { rows } = await sql<{ status: string; n: string | number }>`
    select status, count(*) as n from webhook_deliveries group by status`.execute(db);
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const { rows: last } = await sql<{ at: string | number | null }>`
    select max(delivered_at) as at from webhook_deliveries`.execute(db);
  return {
    pending: by.pending ?? 0,
    succeeded: by.succeeded ?? 0,
    failed: by.failed ?? 0,
    lastDelivered: Number(last[0]?.at ?? 0),
  };
}

/** The baseline: the same bodies signed and POSTed by a bare loop, `inFlight` at once. */
async function baseline(
  count: number,
  inFlight: number,
  urlOf: (c: number) => string,
  secrets: string[],
  clients: number,
) {
  const signers = secrets.map((s) => [signerOf(s)]);
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const c = i % clients;
      const id = `base-${i}`;
      const body = JSON.stringify({
        id,
        sequence: i + 1,
        type: 'order.created',
        timestamp: new Date().toISOString(),
        data: { id: `order-${i}` },
      });
      const at = new Date();
      const res = await fetch(urlOf(c), {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signatureOf(signers[c] ?? [], id, at, body),
        },
        body,
      });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return performance.now() - t0;
}

async function scenario(options: { count: number; clients: number; receivers: number; down: number }) {
  const base = args['database-url'] as string;
  const fresh = await createFreshPostgresDatabase(base);
  const opened = await createDb({ kind: 'postgres', url: fresh.url, max: 20 });
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'development',
    DATABASE_URL: fresh.url,
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
    JOBS_CONCURRENCY: String(Math.max(16, options.clients)),
  };
  const deps = benchDeps(opened, env);
  const _config = deps.config;
  let ports: number[] = [];
  const urlOf = (c: number) => `http://127.0.0.1:${ports[c % ports.length]}/hooks/${c}`;
  try {
    await migrateToLatest(opened.db);
    // Secrets first (the receivers verify with them), then the receivers, then the clients with their URLs.
    const secrets = Array.from({ length: options.clients }, () => newWebhookSecret());
    const receivers = await startReceivers(options.receivers, secrets);
    ports = receivers.ports;
    try {
      await seedClients(opened.db, deps, secrets, urlOf);
      let baselineMs: number | null = null;
      if (options.down === 0) {
        baselineMs = await baseline(options.count, options.clients * POOL, urlOf, secrets, options.clients);
        await receivers.reset();
      }
      const enqueueMs = await seedEvents(opened.db, options.count, options.clients);
      // The receivers go down as the dispatch starts, for `down` seconds (connections refused), then come back.
      if (options.down > 0) await receivers.goDown(options.down);
      const t0 = performance.now();
      const wall0 = Date.now();
      const runner = runJobs(deps);
      let p = await progress(opened.db);
      const giveUp = (options.down + 600) * 1000;
      while ((p.pending > 0 || p.succeeded + p.failed < options.count) && performance.now() - t0 < giveUp) {
        await Bun.sleep(100);
        p = await progress(opened.db);
      }
      const wallMs = p.pending === 0 ? p.lastDelivered - wall0 : performance.now() - t0;
      await runner.stop(5_000);
      const stats = await receivers.stats();
      const { rows } = await sql<{ n: string | number }>`select count(*) as n from webhook_attempts`.execute(opened.db);
      return { enqueueMs, wallMs, baselineMs, p, stats, attempts: Number(rows[0]?.n ?? 0) };
    } finally {
      receivers.stop();
    }
  } finally {
    await opened.close();
    if (!args.keep) await fresh.drop();
  }
}

async function main() {
  const count = Number(args.count);
  const clients = Number(args.clients);
  const receivers = Number(args.receivers);
  const down = Number(args.down);
  const goal = Number(args.goal);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  log(
    `bench/webhooks: ${int(count)} deliveries, ${clients} clients, ${receivers} receivers; ${cpus().length} cores, load ${load}`,
  );
  let ok = true;

  const healthy = await scenario({ count, clients, receivers, down: 0 });
  const rate = (count / healthy.wallMs) * 1000;
  const baseRate = healthy.baselineMs ? (count / healthy.baselineMs) * 1000 : 0;
  const exact = healthy.stats.unique === count && healthy.stats.duplicates === 0 && healthy.p.succeeded === count;
  log(
    '\n| scenario | deliveries | time | deliveries/s | bare baseline /s | ratio | received once | duplicates | bad signatures |',
  );
  log('|---|---|---|---|---|---|---|---|---|');
  log(
    `| healthy receivers | ${int(count)} | ${(healthy.wallMs / 1000).toFixed(1)} s | ${int(rate)} | ${int(baseRate)} | ${(rate / baseRate).toFixed(2)} | ${int(healthy.stats.unique)} | ${healthy.stats.duplicates} | ${healthy.stats.badSignatures} of ${healthy.stats.verified + healthy.stats.badSignatures} checked |`,
  );
  log(`(events recorded beforehand in ${(healthy.enqueueMs / 1000).toFixed(1)} s; attempts ${int(healthy.attempts)})`);
  if (rate < goal || !exact || healthy.stats.badSignatures > 0) ok = false;

  if (down > 0) {
    const out = await scenario({ count, clients, receivers, down });
    const lost = count - out.stats.unique;
    log(
      `| receivers down ${down} s, then back | ${int(count)} | ${(out.wallMs / 1000).toFixed(1)} s | — | — | — | ${int(out.stats.unique)} (lost ${lost}) | ${out.stats.duplicates} | ${out.stats.badSignatures} of ${out.stats.verified + out.stats.badSignatures} checked |`,
    );
    log(`(attempts ${int(out.attempts)}; pending ${out.p.pending}, dead ${out.p.failed})`);
    if (lost !== 0 || out.stats.duplicates !== 0 || out.p.pending !== 0 || out.p.failed !== 0) ok = false;
  }
  log(ok ? '\nGoal met.' : '\nGOAL MISSED.');
  process.exit(ok ? 0 : 1);
}
