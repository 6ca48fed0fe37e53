/**
 * bench/businesses: name search and keyset paging of `businesses/listBusinesses` on 100,000 businesses
 * (10% archived), on PGlite and PostgreSQL. For each case, in the same run and on the same data:
 * - `naive`: `lower(name) like 'x%' order by lower(name), id limit 26`, the obvious query;
 * - `bare`: the same by hand with the prefix also written as a range (`>= 'x' and < 'y'`);
 * - `repository`: the area's `listBusinessesByName` (Kysely, what the service runs);
 * - `rpc`: the whole method through the in-process app (HTTP request, session, validation, paging).
 * and the EXPLAIN of the repository's query, to show which index serves it.
 *
 * Run: `bun bench/businesses/search.bench.ts` (PGlite only), or with
 * `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres` for PostgreSQL too (a fresh
 * database is created there and dropped afterwards). ROWS=… and RUNS=… change the size.
 */
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { createDb, type Database, type DbKind, migrateToLatest } from '../../db/src/index.ts';
import { createApp } from '../../packages/api/src/app.ts';
import {
  hasCodePointCollation,
  listBusinessesByName,
  prefixMatch,
} from '../../packages/api/src/areas/businesses/repository.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import { encodeCursor } from '../../packages/api/src/lists/paging.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { createMemoryMailer } from '../../packages/api/src/mail/mailer.ts';
import { createSessionAuth } from '../../packages/api/src/sessions/sessions.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';

const ROWS = Number(process.env.ROWS ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 200);
const ORIGIN = 'http://medlocker.bench';

async function freshPostgres(baseUrl: string) {
  const name = `medlocker_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

/** Half chain-style names ('Boots Pharmacy 123'), half random words: selective and unselective prefixes. */
async function seed(db: Kysely<Database>) {
  await sql`
    insert into businesses (id, name, email, post_town, postcode, archived_at, created, updated)
    select
      lpad(to_hex(i), 12, '0') || '-' || md5(i::text),
      case when i % 2 = 0
        then (array['Boots','Lloyds','Well','Rowlands','Day Lewis','Cohens','Jhoots','Superdrug','Asda','Tesco'])[1 + (i / 2) % 10]
             || ' Pharmacy ' || i
        else initcap(substr(md5(i::text), 1, 9)) || ' Chemist'
      end,
      'shop' || i || '@example.com', 'Leeds', 'LS1 6HD',
      case when i % 10 = 3 then 1 else null end,
      1, 1
    from generate_series(1, ${ROWS}) as i`.execute(db);
  await sql`analyze businesses`.execute(db);
}

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  return { median: at(0.5), p95: at(0.95) };
}

async function time(fn: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await fn(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return stats(samples);
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

async function run(kind: DbKind, url?: string) {
  const opened = await createDb(
    kind === 'postgres' ? { kind, url: url as string, max: 5 } : { kind, dataDir: 'memory://' },
  );
  const db = opened.db;
  try {
    await migrateToLatest(db);
    const seeded = performance.now();
    await seed(db);
    console.log(`\n## ${kind}: ${ROWS.toLocaleString('en-GB')} businesses seeded in ${ms(performance.now() - seeded)}`);

    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: ORIGIN });
    const now = Date.now();
    const app = createApp({
      db,
      dbKind: kind,
      config,
      logger: silentLogger,
      now: () => now,
      auth: createSessionAuth(() => db),
      mailer: createMemoryMailer(),
    });
    const admin = await signInTestUser(db, now, { support: true });
    const rpc = async (input: Record<string, unknown>) => {
      const res = await app.handle(
        new Request(`${ORIGIN}/api/businesses/listBusinesses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: admin.cookie },
          body: JSON.stringify(input),
        }),
      );
      if (res.status !== 200) throw new Error(`listBusinesses: ${res.status} ${await res.text()}`);
      return res.json();
    };

    // A cursor halfway down the active list, as a client deep in its scrolling would send.
    const middle = await sql<{ k: string; id: string }>`
      select lower(name) as k, id from businesses where archived_at is null
      order by lower(name), id offset ${Math.floor(ROWS * 0.45)} limit 1`.execute(db);
    const mid = middle.rows[0] as { k: string; id: string };

    const cases: { name: string; filter?: string; after?: [string, string] }[] = [
      { name: 'prefix "boots" (5% of rows), first page', filter: 'boots' },
      { name: 'prefix "boots", a page from its middle', filter: 'boots', after: ['boots pharmacy 5', ''] },
      { name: 'prefix "boots pharmacy 4242" (1 row)', filter: 'boots pharmacy 4242' },
      { name: 'prefix "a" (~6%), first page', filter: 'a' },
      { name: 'no filter, first page' },
      { name: 'no filter, page from the middle', after: [mid.k, mid.id] },
    ];
    console.log(
      '\n| case | like only (naive) | bare indexed query | repository (Kysely) | rpc listBusinesses | rows |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const c of cases) {
      const like = c.filter ? `${c.filter.toLowerCase()}%` : null;
      const lo = c.filter?.toLowerCase() ?? null;
      const hi = lo ? `${lo.slice(0, -1)}${String.fromCharCode(lo.charCodeAt(lo.length - 1) + 1)}` : null;
      const naive = () =>
        sql`select * from businesses where archived_at is null
            and (${like}::text is null or lower(name) like ${like})
            and (${c.after?.[0] ?? null}::text is null or (lower(name), id) > (${c.after?.[0] ?? ''}, ${c.after?.[1] ?? ''}))
            order by lower(name), id limit 26`.execute(db);
      const bare = () =>
        sql`select * from businesses where archived_at is null
            and (${like}::text is null or (lower(name) >= ${lo} and lower(name) < ${hi} and lower(name) like ${like}))
            and (${c.after?.[0] ?? null}::text is null or (lower(name), id) > (${c.after?.[0] ?? ''}, ${c.after?.[1] ?? ''}))
            order by lower(name), id limit 26`.execute(db);
      const repo = () =>
        listBusinessesByName(db, {
          archived: 'active',
          ...(c.filter ? { filter: c.filter } : {}),
          ...(c.after ? { after: c.after } : {}),
          limit: 25,
        });
      const input = {
        ...(c.filter ? { filterText: c.filter } : {}),
        ...(c.after ? { nextToken: encodeCursor(c.after) } : {}),
      };
      const rows = (await repo()).length;
      const n = await time(naive);
      const b = await time(bare);
      const r = await time(repo);
      const h = await time(() => rpc(input));
      console.log(
        `| ${c.name} | ${ms(n.median)} (p95 ${ms(n.p95)}) | ${ms(b.median)} (p95 ${ms(b.p95)}) | ${ms(r.median)} (p95 ${ms(r.p95)}) | ${ms(h.median)} (p95 ${ms(h.p95)}) | ${rows} |`,
      );
    }

    // The plan of the repository's own query: compiled by Kysely, explained as is.
    for (const c of [{ filter: 'boots' }, { filter: 'a' }, { after: [mid.k, mid.id] as [string, string] }]) {
      let q = db.selectFrom('businesses').selectAll().where('archived_at', 'is', null);
      if (c.filter) q = q.where(prefixMatch(c.filter, await hasCodePointCollation(db)));
      if (c.after) q = q.where(sql<boolean>`(lower(name), id) > (${c.after[0]}, ${c.after[1]})`);
      const compiled = q.orderBy(sql`lower(name)`).orderBy('id').limit(26).compile();
      const plan = await db.executeQuery<{ 'QUERY PLAN': string }>({
        ...compiled,
        sql: `explain (analyze, costs off, timing off, summary off) ${compiled.sql}`,
      });
      console.log(`\nEXPLAIN ${c.filter ? `filter '${c.filter}%'` : 'page after the middle cursor'}:`);
      console.log(`\`\`\`\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\``);
    }
  } finally {
    await opened.close();
  }
}

await run('pglite');
const base = process.env.BENCH_DATABASE_URL;
if (base) {
  const fresh = await freshPostgres(base);
  try {
    await run('postgres', fresh.url);
  } finally {
    await fresh.drop();
  }
}
