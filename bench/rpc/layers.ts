/**
 * Where a list read's api CPU goes, layer by layer, in-process (no HTTP): `bun bench/rpc/layers.ts
 * [postgres url]` (a fresh database beside the url's, dropped after). Each line is µs of this process's
 * CPU (user + system, so the socket's kernel work counts) per call, 16 calls in flight, after 2,000
 * warm-up calls: the lowest and the median of five rounds. `BENCH_MODE=production` runs the api as
 * production does (no output check against the contract). `ONLY=app,rpc,db,socket` picks sections.
 *
 * - app: `businesses/listBusinesses` through `app.handle` (the whole app but Bun's HTTP server);
 * - rpc: the RPC layer alone (rpcArea) with the real service and with a fixed answer; the service alone;
 *   the repository alone;
 * - db: the page's query as `pg` runs it, rows as objects against one JSON column a row (PostgreSQL
 *   writing the JSON: tried, not kept, docs/decisions/database.md); `select 1`;
 * - socket: the same statements over TCP loopback and over PostgreSQL's Unix socket.
 */

import pg from 'pg';
import { createDb, migrateToLatest } from '../../db/src/index.ts';
import { createFreshPostgresDatabase } from '../../db/src/testing.ts';
import { createApp } from '../../packages/api/src/app.ts';
import * as businesses from '../../packages/api/src/areas/businesses/index.ts';
import { listBusinessesByName } from '../../packages/api/src/areas/businesses/repository.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import type { AppDeps } from '../../packages/api/src/context/deps.ts';
import { LiveHub, localTransport } from '../../packages/api/src/live/live.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { createMemoryMailer } from '../../packages/api/src/mail/mailer.ts';
import { rpcArea } from '../../packages/api/src/rpc/area.ts';
import { cachedAuth } from '../../packages/api/src/sessions/session-cache.ts';
import { createSessionAuth } from '../../packages/api/src/sessions/sessions.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';

const fresh = await createFreshPostgresDatabase(process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const opened = await createDb({ kind: 'postgres', url: fresh.url, max: 10 });
await migrateToLatest(opened.db);
const now = Date.now();
await opened.db
  .insertInto('businesses')
  .values(
    Array.from({ length: 200 }, (_, i) => ({
      id: `bench-${String(i).padStart(4, '0')}`,
      name: `Pharmacy ${String(i).padStart(4, '0')} ${['Leeds', 'York', 'Hull', 'Bath'][i % 4]}`,
      email: `p${i}@bench.test`,
      address_line1: `${i} High Street`,
      post_town: 'LEEDS',
      postcode: 'LS1 4AP',
      created: now,
      updated: now,
    })),
  )
  .execute();
const { cookie } = await signInTestUser(opened.db, now, { support: true });
const production = process.env.BENCH_MODE === 'production';
const origin = production ? 'https://127.0.0.1' : 'http://127.0.0.1';
const config = loadConfig(
  production
    ? {
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        PUBLIC_URL: origin,
        SMTP_URL: 'smtp://127.0.0.1:2525',
        SECRETS_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
      }
    : { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: origin },
);
const live = new LiveHub(localTransport(), silentLogger);
const deps: AppDeps = {
  db: opened.db,
  dbKind: opened.kind,
  config,
  logger: silentLogger,
  now: Date.now,
  auth: cachedAuth(
    createSessionAuth(() => opened.db),
    live,
  ),
  mailer: createMemoryMailer(),
  live,
};
const listRequest = () =>
  new Request(`${origin}/api/businesses/listBusinesses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie, 'content-length': '2' },
    body: '{}',
  });

async function cpu(label: string, fn: () => Promise<unknown>, n = 4000) {
  const run = async (count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next++ < count) await fn();
      }),
    );
  };
  await run(2000);
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const before = process.cpuUsage();
    await run(n);
    const used = process.cpuUsage(before);
    rounds.push((used.user + used.system) / n);
  }
  rounds.sort((a, b) => a - b);
  console.log(`${label}: ${rounds[0]?.toFixed(1)} / ${rounds[2]?.toFixed(1)} µs`);
}

const only = process.env.ONLY?.split(',');
const wanted = (section: string) => !only || only.includes(section);
console.log(`bench/rpc/layers ${new Date().toISOString()}, ${production ? 'production' : 'test'} mode`);

if (wanted('app')) {
  const app = createApp(deps);
  await cpu('listBusinesses through app.handle', async () => (await app.handle(listRequest())).text());
  await cpu('/healthz through app.handle', async () => (await app.handle(new Request(`${origin}/healthz`))).text());
}

if (wanted('rpc')) {
  const served = (handlers: object) => rpcArea(deps, 'businesses', handlers);
  const real = served(businesses);
  const answer = await (await real.handle(listRequest())).text();
  const fixed = served({ listBusinesses: async () => JSON.parse(answer) });
  await cpu('rpcArea, the real service', async () => (await real.handle(listRequest())).text());
  await cpu('rpcArea, a fixed answer (object)', async () => (await fixed.handle(listRequest())).text());
  const actor = { kind: 'support', userId: 'bench', origin: 'console' } as const;
  await cpu('the service alone', () => businesses.listBusinesses(deps, actor as never, {}));
  await cpu('the repository alone', () => listBusinessesByName(opened.db, { archived: 'active', limit: 25 }));
}

const page = (columns: string) =>
  `select ${columns} from businesses where archived_at is null order by lower(name), id limit $1`;
const asObjects = page('*, lower(name) as name_key');
const asJson = page(
  `json_build_object('id', id, 'name', name, 'email', coalesce(email, ''), 'address', json_build_object('line1', address_line1, 'line2', address_line2, 'line3', address_line3, 'postTown', post_town, 'postcode', postcode), 'groupId', group_id, 'keyholdersMobileNumbers', keyholders_mobile_numbers, 'notificationEmails', notification_emails, 'created', created, 'updated', updated)::text as json, lower(name) as name_key, id`,
);

if (wanted('db')) {
  const pool = new pg.Pool({ connectionString: fresh.url, max: 10 });
  await cpu('pg: 26 rows as objects (every column)', () =>
    pool.query({ name: 'objects', text: asObjects, values: [26] }),
  );
  await cpu('pg: 26 rows as one JSON column each', () => pool.query({ name: 'json', text: asJson, values: [26] }));
  await cpu('pg: select 1', () => pool.query({ name: 'one', text: 'select 1' }));
  await pool.end();
}

if (wanted('socket')) {
  const database = new URL(fresh.url).pathname.slice(1);
  const tcp = new pg.Pool({ connectionString: fresh.url, max: 10 });
  const unix = new pg.Pool({
    host: process.env.PGSOCKET ?? '/var/run/postgresql',
    user: 'postgres',
    database,
    max: 10,
  });
  for (let round = 0; round < 2; round++) {
    for (const [name, pool] of [
      ['tcp', tcp],
      ['unix', unix],
    ] as const) {
      await cpu(`${name}: the page as JSON`, () => pool.query({ name: 'json', text: asJson, values: [26] }));
      await cpu(`${name}: select 1`, () => pool.query({ name: 'one', text: 'select 1' }));
    }
  }
  await tcp.end();
  await unix.end();
}

await live.close();
await opened.close();
await fresh.drop();
