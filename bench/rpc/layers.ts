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
import { LiveHub, localTransport } from '../../packages/api/src/live/live.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { rpcArea } from '../../packages/api/src/rpc/area.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';
import { benchDeps, seedBusinesses } from './fixture.ts';
import { benchOrigin, benchProduction } from './mode.ts';

const fresh = await createFreshPostgresDatabase(process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const opened = await createDb({ kind: 'postgres', url: fresh.url, max: 10 });
await migrateToLatest(opened.db);
const now = Date.now();
await seedBusinesses(opened.db, now);
const { cookie } = await signInTestUser(opened.db, now, { support: true });
const production = benchProduction();
const origin = benchOrigin();
const live = new LiveHub(localTransport(), silentLogger);
const deps = benchDeps(opened, live);
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
