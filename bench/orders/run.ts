/**
 * bench/orders: `orders/listOrdersByBusiness` on 1,000,000 orders and `orders/create`
 * throughput, on PostgreSQL, through the real app in process (`app.handle`, a support session's cookie,
 * the session cache and live hub as server.ts wires them).
 * On demand only, never part of `npm test`.
 *
 * Data: 5 businesses, one holding 90% of the orders; 20,000 patients; orders generated in SQL with the
 * orders indexes dropped during the insert and re-created from their own definitions (pg_get_indexdef),
 * then ANALYZE. Status mix as an estate a year in: 88% collected, 4% cancelled, 3% removed, 3% new, 2%
 * loaded (a fifth of those past their window).
 *
 * 1. Reads: for each query shape (first page, a status, onlyCurrent, expired, a contains search common
 *    and rare, a deep page via nextToken), RUNS sequential calls of the RPC, and beside them the same
 *    query by hand on the same pool (the **bare** query: what the database alone costs), interleaved.
 *    The EXPLAIN (ANALYZE, BUFFERS) of each bare query is printed.
 * 2. Creates: CLIENTS concurrent clients call `orders/create` for SECONDS; the baseline is the same
 *    clients doing a bare one-statement insert of an order row (autocommit), same pool, same run.
 *
 * Run from the repo root:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/orders/run.ts [--markdown]
 *     [--rows 1000000] [--runs 200] [--clients 8] [--seconds 10] [--keep] [--explain] [--profile]
 *     [--only reads,creates]   (the tables are always markdown; --markdown is accepted and changes nothing)
 * A database `medlocker_bench_orders` is created beside the one in the URL (never the tests' own), and
 * dropped afterwards unless --keep; with --keep, a later run that finds it holding --rows orders reuses it.
 */

import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { createDb, type Database, migrateToLatest } from '../../db/src/index.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import { encodeCursor } from '../../packages/api/src/lists/paging.ts';
import { LiveHub, localTransport } from '../../packages/api/src/live/live.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { createMemoryMailer } from '../../packages/api/src/mail/mailer.ts';
import { cachedAuth } from '../../packages/api/src/sessions/session-cache.ts';
import { createSessionAuth } from '../../packages/api/src/sessions/sessions.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';
import { adminQuery } from '../admin-query.ts';

const { values: args } = parseArgs({
  options: {
    markdown: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '200' },
    clients: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '10' },
    only: { type: 'string', default: 'reads,creates' },
    profile: { type: 'boolean', default: false },
  },
});
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);
const CLIENTS = Number(args.clients);
const SECONDS = Number(args.seconds);
const ORIGIN = 'http://medlocker.bench';
const DB_NAME = 'medlocker_bench_orders';
const BIG = 'b0000000-0000-7000-8000-000000000001';
const BUSINESSES = [BIG, ...[2, 3, 4, 5].map((n) => `b0000000-0000-7000-8000-00000000000${n}`)];
const PATIENTS = 20_000;
const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!base) throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');

const log = (...a: unknown[]) => console.log(...a);
const ms = (n: number) => `${n.toFixed(1)} ms`;

function benchUrl() {
  const url = new URL(base as string);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

async function seed(db: Kysely<Database>, now: number) {
  const t0 = performance.now();
  const names = `array['Smith','Jones','Taylor','Brown','Williams','Wilson','Johnson','Davies','Patel','Robinson',
    'Wright','Thompson','Evans','Walker','White','Roberts','Green','Hall','Khan','Wood']`;
  const given = `array['Olivia','Amelia','Isla','Ava','Mia','Noah','Oliver','George','Arthur','Leo','Muhammad','Harry']`;
  await sql
    .raw(`insert into businesses (id, name, email, post_town, postcode, created, updated)
    select b, 'Bench Pharmacy ' || right(b, 1), 'bench' || right(b, 1) || '@example.com', 'Leeds', 'LS1 6HD', ${now}, ${now}
    from unnest(array[${BUSINESSES.map((b) => `'${b}'`).join(',')}]) as b`)
    .execute(db);
  // Patients 1..18,000 in the big business, the rest shared out among the four others.
  await sql
    .raw(`insert into patients (id, business_id, display_id, given_name, family_name, full_name, created, updated)
    select 'p' || lpad(i::text, 8, '0'),
      case when i <= 18000 then '${BIG}' else 'b0000000-0000-7000-8000-00000000000' || (2 + i % 4) end,
      'D' || i, (${given})[1 + i % 12], (${names})[1 + (i / 12) % 20] || case when i % 500 = 7 then 'ington' else '' end,
      (${given})[1 + i % 12] || ' ' || (${names})[1 + (i / 12) % 20] || case when i % 500 = 7 then 'ington' else '' end,
      ${now}, ${now}
    from generate_series(1, ${PATIENTS}) as i`)
    .execute(db);
  const defs = await sql<{ indexname: string; indexdef: string }>`
    select indexname, indexdef from pg_indexes
    where tablename = 'orders' and indexname not in (
      select conname from pg_constraint where conrelid = 'orders'::regclass)`.execute(db);
  for (const d of defs.rows) await sql.raw(`drop index ${d.indexname}`).execute(db);
  const day = 86_400_000;
  // Order i: 90% in the big business (patient 1..18,000), else a patient (18,001..20,000) of one of the others.
  // Ids sort as they were made (like uuidv7), created spread over the year before now.
  await sql
    .raw(`insert into orders (id, reference, business_id, business_name, patient_id, patient_name, barcode,
      status, collection_window, expires_at, collected, created_via, created, updated, pin_lookup)
    select o.id, lpad(o.i::text, 7, '0'), p.business_id, 'Bench Pharmacy ' || right(p.business_id, 1), p.id,
      p.full_name, 'BC' || lpad(o.i::text, 9, '0') || upper(substr(md5(o.i::text), 1, 4)), o.st, 7,
      case when o.st = 'loaded' then o.created + case when o.i % 5 = 0 then -o.day else 6 * o.day end end,
      case when o.st = 'collected' then o.created + o.day end, 'portal', o.created, o.created,
      case when o.st in ('new', 'loaded') then md5('pin' || o.i) end
    from (
      select i, lpad(to_hex(i), 12, '0') || '-7000-8000-' || substr(md5(i::text), 1, 12) as id,
        case when i % 10 = 0 then 18001 + (i / 10) % 2000 else 1 + (i::bigint * 7919) % 18000 end as pat,
        case when i > ${ROWS} - ${Math.round(ROWS * 0.05)}
          then (array['new','new','new','loaded','loaded'])[1 + i % 5]
          else (array['collected','collected','collected','collected','collected','collected','collected',
            'collected','collected','collected','collected','collected','collected','collected','collected',
            'collected','collected','collected','collected','collected','collected','collected','collected',
            'collected','collected','collected','collected','collected','collected','collected',
            'cancelled','cancelled','removed'])[1 + i % 33] end as st,
        ${now - 365 * day}::bigint + (i::bigint * ${Math.floor((365 * day) / ROWS)}) as created,
        ${day}::bigint as day
      from generate_series(1, ${ROWS}) as i
    ) o join patients p on p.id = 'p' || lpad(o.pat::text, 8, '0')`)
    .execute(db);
  // The next create's reference must follow the seeded ones, as the counter would have it.
  await sql
    .raw(`insert into order_counters (scope, value)
      select 'reference:' || b, ${ROWS + 1} from unnest(array[${BUSINESSES.map((b) => `'${b}'`).join(',')}]) b`)
    .execute(db);
  const inserted = performance.now();
  for (const d of defs.rows) await sql.raw(d.indexdef).execute(db);
  await sql`analyze`.execute(db);
  log(
    `seeded ${ROWS.toLocaleString('en-GB')} orders: insert ${ms(inserted - t0)}, ${defs.rows.length} indexes + analyze ${ms(performance.now() - inserted)}`,
  );
}

function pct(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s[s.length - 1] as number };
}

/**
 * --profile: time every statement the pg clients send during the creates (wall time from send to
 * answer, lock waits included), summed by statement text, to say where a create's time goes.
 */
const statementTimes = new Map<string, { n: number; total: number }>();
let profiling = false;
if (args.profile) {
  const original = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }).query = function (
    this: unknown,
    ...a: unknown[]
  ) {
    const out = original.apply(this, a);
    if (!profiling || !(out instanceof Promise)) return out;
    const first = a[0] as string | { text?: string };
    const text = (typeof first === 'string' ? first : (first?.text ?? '?')).replace(/\s+/g, ' ').slice(0, 90);
    const t0 = performance.now();
    return out.finally(() => {
      const e = statementTimes.get(text) ?? { n: 0, total: 0 };
      e.n++;
      e.total += performance.now() - t0;
      statementTimes.set(text, e);
    });
  };
}

async function main() {
  const url = benchUrl();
  const exists = (await adminQuery(base, `select 1 from pg_database where datname = '${DB_NAME}'`)).rows.length > 0;
  let reuse = false;
  if (exists && args.keep) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const n = await c.query('select count(*)::int as n from orders').catch(() => ({ rows: [{ n: -1 }] }));
    await c.end();
    reuse = n.rows[0].n >= ROWS;
  }
  if (!reuse) {
    await adminQuery(base, `drop database if exists ${DB_NAME} with (force)`);
    await adminQuery(base, `create database ${DB_NAME}`);
  }
  const { db, close } = await createDb({ kind: 'postgres', url, max: 10 });
  const now = Date.now();
  try {
    if (!reuse) {
      await migrateToLatest(db);
      await seed(db, now);
    } else {
      // A migration added since the database was seeded (an index) applies to the kept one too.
      await migrateToLatest(db);
      // Back to the seeded estate: the orders an earlier run created (uuidv7 ids, '01…', after the
      // seeded '00000…') would otherwise be the newest page of every list.
      await sql`delete from order_events where order_id >= '01'`.execute(db);
      await sql`delete from orders where id >= '01'`.execute(db);
      await sql`vacuum analyze orders`.execute(db);
      log(`reusing ${DB_NAME}, its earlier runs' orders deleted`);
    }
    await sql`delete from audit_log`.execute(db).catch(() => undefined);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: ORIGIN });
    // As packages/api/src/server.ts builds it: the session cache and a live hub (in-process transport).
    const live = new LiveHub(localTransport(), silentLogger);
    const app = createApp({
      db,
      dbKind: 'postgres',
      config,
      logger: silentLogger,
      now: () => Date.now(),
      auth: cachedAuth(
        createSessionAuth(() => db),
        live,
      ),
      mailer: createMemoryMailer(),
      live,
    });
    const support = await signInTestUser(db, now, { support: true });
    const call = async (method: string, input: unknown) => {
      const res = await app.handle(
        new Request(`${ORIGIN}/api/orders/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: support.cookie },
          body: JSON.stringify(input),
        }),
      );
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status !== 200) throw new Error(`${method}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const version = (await sql<{ v: string }>`select version() as v`.execute(db)).rows[0]?.v ?? '';
    const big = (await sql<{ n: number }>`select count(*)::int as n from orders where business_id = ${BIG}`.execute(db))
      .rows[0]?.n;
    log(
      `\n${version.split(',')[0]}; big business: ${big?.toLocaleString('en-GB')} orders; ${new Date().toISOString()}`,
    );
    const parts = String(args.only).split(',');
    if (parts.includes('reads')) await reads(db, call, now);
    if (parts.includes('creates')) await creates(db, call);
  } finally {
    await close();
    if (!args.keep) await adminQuery(base, `drop database if exists ${DB_NAME} with (force)`);
  }
}

type Call = (method: string, input: unknown) => Promise<Record<string, unknown>>;

async function reads(db: Kysely<Database>, call: Call, now: number) {
  const deep = await sql<{ id: string }>`
    select id from orders where business_id = ${BIG} order by id desc offset ${Math.floor(ROWS * 0.8)} limit 1`.execute(
    db,
  );
  const deepId = deep.rows[0]?.id as string;
  const rare = 'ington'; // 1 patient in 500: ~0.2% of the orders
  const rareBarcode = `BC${String(Math.floor(ROWS / 2) + 1).padStart(9, '0')}`; // one order
  const cols = 'select * from orders where business_id = $1';
  const cases: { name: string; input: Record<string, unknown>; bare: string; params: unknown[] }[] = [
    { name: 'first page', input: {}, bare: `${cols} order by id desc limit 26`, params: [BIG] },
    {
      name: 'statusCode new',
      input: { statusCode: 'new' },
      bare: `${cols} and status = 'new' order by id desc limit 26`,
      params: [BIG],
    },
    {
      name: 'statusCode cancelled',
      input: { statusCode: 'cancelled' },
      bare: `${cols} and status = 'cancelled' order by id desc limit 26`,
      params: [BIG],
    },
    {
      name: 'statusCode expired',
      input: { statusCode: 'expired' },
      // As listOrderRows sends it: the page's ids from orders_business_loaded_idx, then their rows.
      bare: `select * from orders where id in (select id from orders where business_id = $1 and status = 'loaded'
        and expires_at + 0 <= $2 order by id desc limit 26) order by id desc`,
      params: [BIG, now],
    },
    {
      name: 'onlyCurrent',
      input: { onlyCurrent: true },
      bare: `${cols} and status in ('new', 'loaded') order by id desc limit 26`,
      params: [BIG],
    },
    {
      name: 'contains "smith" (5%)',
      input: { filterText: 'smith' },
      bare: `${cols} and (barcode || E'\\n' || reference || E'\\n' || patient_name) ilike '%smith%' order by id desc limit 26`,
      params: [BIG],
    },
    {
      name: `contains "${rare}" (0.2%)`,
      input: { filterText: rare },
      bare: `${cols} and (barcode || E'\\n' || reference || E'\\n' || patient_name) ilike '%${rare}%' order by id desc limit 26`,
      params: [BIG],
    },
    {
      name: 'contains a barcode (1 row)',
      input: { filterText: rareBarcode },
      bare: `${cols} and (barcode || E'\\n' || reference || E'\\n' || patient_name) ilike '%${rareBarcode}%' order by id desc limit 26`,
      params: [BIG],
    },
    {
      name: 'deep page (80% down) via nextToken',
      input: { nextToken: encodeCursor([deepId]) },
      bare: `${cols} and id < $2 order by id desc limit 26`,
      params: [BIG, deepId],
    },
    {
      name: 'cancelled + contains "smith", deep page',
      input: { statusCode: 'cancelled', filterText: 'smith', nextToken: encodeCursor([deepId]) },
      bare: `${cols} and status = 'cancelled' and (barcode || E'\\n' || reference || E'\\n' || patient_name) ilike '%smith%' and id < $2 order by id desc limit 26`,
      params: [BIG, deepId],
    },
  ];
  const pool = new pg.Pool({ connectionString: benchUrl(), max: 2 });
  const rows: string[] = [];
  for (const c of cases) {
    const input = { businessId: BIG, ...c.input };
    const bare = () => pool.query(c.bare, c.params);
    const rpc = () => call('listOrdersByBusiness', input);
    const first = (await rpc()) as { orders: unknown[] };
    const bareRows = (await bare()).rows.length;
    for (let i = 0; i < 10; i++) {
      await bare();
      await rpc();
    }
    const tb: number[] = [];
    const tr: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      await bare();
      tb.push(performance.now() - t0);
      t0 = performance.now();
      await rpc();
      tr.push(performance.now() - t0);
    }
    const b = pct(tb);
    const r = pct(tr);
    rows.push(
      `| ${c.name} | ${first.orders.length} (${bareRows}) | ${ms(b.p50)} / ${ms(b.p99)} | ${ms(r.p50)} / **${ms(r.p99)}** | ${(r.p50 / b.p50).toFixed(1)}× | ${r.p99 <= 50 ? 'met' : 'NOT met'} |`,
    );
    if (args.explain) {
      const plan = await pool.query(`explain (analyze, buffers, costs off) ${c.bare}`, c.params);
      log(`\n### ${c.name}\n${plan.rows.map((x) => `    ${x['QUERY PLAN']}`).join('\n')}`);
    }
  }
  await pool.end();
  log(`\n#### listOrdersByBusiness, ${RUNS} sequential calls a case, interleaved with the bare query`);
  log('\n| case | rows (bare) | bare query p50 / p99 | rpc p50 / **p99** | rpc ÷ bare, p50 | goal p99 ≤ 50 ms |');
  log('|---|---|---|---|---|---|');
  for (const r of rows) log(r);
}

async function creates(db: Kysely<Database>, call: Call) {
  const patients = await sql<{ id: string; business_id: string }>`
    select id, business_id from patients order by id`.execute(db);
  const bigPatients = patients.rows.filter((p) => p.business_id === BIG);
  // Spread: client c creates in business c % 5, so the five counters are shared out evenly.
  const byBusiness = BUSINESSES.map((b) => patients.rows.filter((p) => p.business_id === b));
  let serial = 0;
  const barcode = () => `CR${process.pid}-${Date.now().toString(36)}-${serial++}`;
  const pool = new pg.Pool({ connectionString: benchUrl(), max: 10 });

  async function load(label: string, op: (client: number, k: number) => Promise<unknown>) {
    const lat: number[] = [];
    let errors = 0;
    const warmEnd = performance.now() + 1000;
    const end = warmEnd + SECONDS * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let k = 0; performance.now() < end; k++) {
          const t0 = performance.now();
          try {
            await op(client, k);
          } catch (e) {
            if (errors++ === 0) log(`${label}: ${(e as Error).message}`);
          }
          const t1 = performance.now();
          if (t0 >= warmEnd) {
            lat.push(t1 - t0);
            done++;
          }
        }
      }),
    );
    return { label, perSecond: done / SECONDS, errors, ...pct(lat) };
  }

  const bareInsert = (p: { id: string; business_id: string }) =>
    pool.query(
      `insert into orders (id, reference, business_id, business_name, patient_id, patient_name, barcode,
        collection_window, created_via, created, updated)
       values ($1, $2, $3, 'Bench', $4, 'Bare Insert', $5, 7, 'portal', $6, $6)`,
      [Bun.randomUUIDv7(), `bare-${process.pid}-${serial}`, p.business_id, p.id, barcode(), Date.now()],
    );
  // What-if, by hand: a create's transaction cut to its writes (counter, order, a bag lookup), with the
  // business's reference counter taken first inside it (as the service does: its row lock is held until
  // commit) or in its own short transaction before it (lock held for one statement and its commit).
  const counter = `insert into order_counters (scope, value) values ($1, 1)
    on conflict (scope) do update set value = order_counters.value + 1 returning value`;
  const orderInsert = `insert into orders (id, reference, business_id, business_name, patient_id, patient_name,
    barcode, collection_window, created_via, created, updated) values ($1, $2, $3, 'Bench', $4, 'What If', $5, 7, 'portal', $6, $6)`;
  const whatIf = async (p: { id: string; business_id: string }, counterFirst: boolean) => {
    const client = await pool.connect();
    try {
      let ref = '';
      if (!counterFirst) {
        await client.query('begin');
        await client.query('set local synchronous_commit = off');
        ref = (await client.query(counter, [`reference:${p.business_id}`])).rows[0].value;
        await client.query('commit');
      }
      await client.query('begin');
      if (counterFirst) ref = (await client.query(counter, [`reference:${p.business_id}`])).rows[0].value;
      const code = barcode();
      await client.query(orderInsert, [Bun.randomUUIDv7(), `w${ref}`, p.business_id, p.id, code, Date.now()]);
      await client.query('select id from bags where business_id = $1 and barcode = $2', [p.business_id, code]);
      await client.query('commit');
    } finally {
      client.release();
    }
  };
  const pick = <T>(a: T[], c: number, k: number) => a[(c * 7919 + k * 104729) % a.length] as T;
  const bigBare = await load('bare insert, big business', (c, k) => bareInsert(pick(bigPatients, c, k)));
  profiling = true;
  const bigCreate = await load('orders/create, big business', (c, k) =>
    call('create', { businessId: BIG, patientId: pick(bigPatients, c, k).id, barcode: barcode() }),
  );
  profiling = false;
  const results = [
    bigBare,
    bigCreate,
    await load('bare insert, 5 businesses', (c, k) => bareInsert(pick(byBusiness[c % 5] ?? [], c, k))),
    await load('orders/create, 5 businesses', (c, k) => {
      const p = pick(byBusiness[c % 5] ?? [], c, k);
      return call('create', { businessId: p.business_id, patientId: p.id, barcode: barcode() });
    }),
  ];
  const whatIfs = [
    await load('by hand: counter first in the transaction, big business', (c, k) =>
      whatIf(pick(bigPatients, c, k), true),
    ),
    await load('by hand: counter in its own transaction before it, big business', (c, k) =>
      whatIf(pick(bigPatients, c, k), false),
    ),
  ];
  await pool.end();
  if (args.profile) {
    const creates = bigCreate.perSecond * SECONDS;
    log('\n#### where a create (big business) spends its statement time, ms per create, send to answer');
    for (const [text, e] of [...statementTimes].sort((a, b) => b[1].total - a[1].total).slice(0, 15)) {
      log(`    ${(e.total / creates).toFixed(2).padStart(7)} ms  ×${(e.n / creates).toFixed(2)}  ${text}`);
    }
  }
  log(`\n#### creates: ${CLIENTS} concurrent clients, ${SECONDS} s measured after 1 s warm-up`);
  log('\n| load | per second | p50 / p99 latency | errors | create ÷ bare | goal ≥ 500/s |');
  log('|---|---|---|---|---|---|');
  for (const [i, r] of results.entries()) {
    const isCreate = i % 2 === 1;
    const ratio = isCreate ? `${((r.perSecond / (results[i - 1]?.perSecond ?? 1)) * 100).toFixed(0)}%` : '–';
    const goal = isCreate ? (r.perSecond >= 500 ? 'met' : 'NOT met') : '–';
    log(
      `| ${r.label} | **${r.perSecond.toFixed(0)}** | ${ms(r.p50)} / ${ms(r.p99)} | ${r.errors} | ${ratio} | ${goal} |`,
    );
  }
  for (const r of whatIfs) {
    const ratio = `${((r.perSecond / bigBare.perSecond) * 100).toFixed(0)}% of bare`;
    log(`| ${r.label} | ${r.perSecond.toFixed(0)} | ${ms(r.p50)} / ${ms(r.p99)} | ${r.errors} | ${ratio} | – |`);
  }
}

await main();
