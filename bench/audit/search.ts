/**
 * bench/audit/search.ts: `audit/search` pages on 10,000,000 audit entries, on PostgreSQL, through the
 * real app in process (`app.handle`, a support session and a pharmacy Admin's). On demand only, never
 * part of `npm test`. Goal: each filter's page ≤ 200 ms.
 *
 * Data, generated in SQL (generate_series) with the audit indexes dropped during the insert and made
 * again from their own definitions, then ANALYZE: a year of entries from 2,000 businesses, 5,000 users,
 * 200,000 patients and 1,000,000 orders; 60% of the entries name a patient (an order's or the patient's
 * own), a tenth are about no business (support's work, sign-ins); 40 actions, a few of them rare.
 *
 * For each filter, RUNS sequential calls of the RPC (a first page, 50 entries) and beside each the same
 * page read by the repository alone (the **bare** query: what the database costs), interleaved.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/audit/search.ts
 *     [--rows 10000000] [--runs 20] [--keep]
 * A database `medlocker_bench_audit` is made beside the URL's (never the tests' own) and dropped after
 * unless --keep; a later run that finds it holding --rows entries reuses it.
 */
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { createDb, type Database, migrateToLatest } from '../../db/src/index.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { searchAudit } from '../../packages/api/src/audit/repository.ts';
import { loadConfig } from '../../packages/api/src/config/config.ts';
import { silentLogger } from '../../packages/api/src/log/logger.ts';
import { createMemoryMailer } from '../../packages/api/src/mail/mailer.ts';
import { createSessionAuth } from '../../packages/api/src/sessions/sessions.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';
import { adminQuery } from '../admin-query.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
  },
});
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);
const DB_NAME = 'medlocker_bench_audit';
const ORIGIN = 'http://medlocker.bench';
const YEAR = 365 * 24 * 3600 * 1000;
const T0 = Date.UTC(2025, 11, 1);
const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!base) throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
const url = new URL(base);
url.pathname = `/${DB_NAME}`;
const log = (...a: unknown[]) => console.log(...a);

const biz = (n: string) => `'b' || lpad((${n})::text, 6, '0')`;
async function seed(db: Kysely<Database>) {
  const t = performance.now();
  const indexes = (
    await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes
      where tablename = 'audit_log' and indexname <> 'audit_log_pkey'`.execute(db)
  ).rows;
  for (const i of indexes) await sql.raw(`drop index ${i.name}`).execute(db);
  const actions = `array['order.list','order.list','order.list','order.read','order.read','patient.list',
    'patient.read','patient.read','order.create','patient.create','order.markCollected','order.cancel',
    'message.list','signUp.list','user.list','auth.login','auth.login','auth.logout','patient.update',
    'order.revealPin','order.pin.shownToPatient','report.collectionRecords.list','role.add','user.read',
    'business.update','machine.update','auth.login.failed','signUp.read','order.markRemoved','session.list',
    'audit.search','user.update','patient.delete','webhookDelivery.replay','globalSettings.update',
    'identityProvider.update','role.remove','user.create','auth.password.reset','report.evidencePack']`;
  // Entries arrive in time order, as they do: ids sort with time (a zero-padded counter, like UUIDv7's prefix).
  await sql
    .raw(`insert into audit_log (id, at, actor_user_id, actor_display, action, entity_type, entity_id,
        business_id, patient_id, ip, request_id, details)
      select 'a' || lpad(n::text, 10, '0'),
        ${T0} + (n::bigint * ${YEAR} / ${ROWS}),
        'u' || lpad((hashint4(n) & 4095)::text, 5, '0'),
        'User ' || (hashint4(n) & 4095),
        a.action,
        split_part(a.action, '.', 1),
        case when split_part(a.action, '.', 1) = 'order' then 'o' || lpad((hashint4(n + 1) & 1048575)::text, 7, '0')
             when split_part(a.action, '.', 1) = 'patient' then 'p' || lpad((hashint4(n + 2) & 262143)::text, 6, '0')
             else null end,
        case when n % 10 = 0 then null else ${biz('(hashint4(n + 3) & 2047)')} end,
        case when split_part(a.action, '.', 1) in ('order', 'patient') then 'p' || lpad((hashint4(n + 2) & 262143)::text, 6, '0')
             else null end,
        '10.0.' || (n % 250) || '.' || (n % 200),
        'r' || n,
        '{}'::jsonb
      from generate_series(1, ${ROWS}) n
      cross join lateral (select (${actions})[1 + (hashint4(n + 4) & 2147483647) % 40] as action) a`)
    .execute(db);
  log(`inserted ${ROWS.toLocaleString('en-GB')} entries in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  for (const i of indexes) await sql.raw(i.def).execute(db);
  await sql`analyze audit_log`.execute(db);
  log(`indexed and analysed after ${((performance.now() - t) / 1000).toFixed(0)} s`);
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

async function main() {
  const existing = await adminQuery(base, `select 1 from pg_database where datname = '${DB_NAME}'`);
  if (existing.rowCount === 0) await adminQuery(base, `create database ${DB_NAME}`);
  const { db, close } = await createDb({ kind: 'postgres', url: url.toString(), max: 4 });
  try {
    await migrateToLatest(db);
    const count = Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(db)).rows[0]?.n);
    if (count < ROWS) {
      await sql`truncate audit_log`.execute(db);
      await seed(db);
    } else log(`reusing ${DB_NAME}: ${count.toLocaleString('en-GB')} entries`);
    const app = createApp({
      db,
      dbKind: 'postgres',
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: ORIGIN }),
      logger: silentLogger,
      now: () => Date.now(),
      auth: createSessionAuth(() => db),
      mailer: createMemoryMailer(),
    });
    const now = Date.now();
    const businesses = ['b000007', 'b000008', 'b000009'];
    await sql`insert into businesses (id, name, created, updated)
      select b, 'Bench ' || b, 1, 1 from unnest(${businesses}::text[]) b on conflict do nothing`.execute(db);
    const support = await signInTestUser(db, now, { support: true });
    const admin = await signInTestUser(db, now, {
      roles: businesses.map((id) => ({
        name: 'Business' as const,
        resourceType: 'business' as const,
        resourceId: id,
        accessLevels: ['Admin'],
      })),
    });
    const call = async (cookie: string, input: Record<string, unknown>) => {
      const res = await app.handle(
        new Request(`${ORIGIN}/api/audit/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN, cookie },
          body: JSON.stringify(input),
        }),
      );
      const body = (await res.json()) as { entries: unknown[]; nextToken: string | null };
      if (res.status !== 200)
        throw new Error(`audit.search ${JSON.stringify(input)}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const mid = T0 + YEAR / 2;
    const first = await call(support.cookie, { businessId: 'b000042' });
    const shapes: [string, string, Record<string, unknown>, Parameters<typeof searchAudit>[1]][] = [
      ['everything (support)', support.cookie, {}, { businesses: null, limit: 51 }],
      ['patient', support.cookie, { patientId: 'p004242' }, { businesses: null, patientId: 'p004242', limit: 51 }],
      ['user', support.cookie, { userId: 'u00042' }, { businesses: null, userId: 'u00042', limit: 51 }],
      ['business', support.cookie, { businessId: 'b000042' }, { businesses: ['b000042'], limit: 51 }],
      ['order', support.cookie, { orderId: 'o0004242' }, { businesses: null, orderId: 'o0004242', limit: 51 }],
      [
        'action (common)',
        support.cookie,
        { action: 'order.read' },
        { businesses: null, action: 'order.read', limit: 51 },
      ],
      [
        'action (rare: none)',
        support.cookie,
        { action: 'no.such' },
        { businesses: null, action: 'no.such', limit: 51 },
      ],
      [
        'time range (a day, mid-year)',
        support.cookie,
        { since: mid, until: mid + 86_400_000 },
        { businesses: null, since: mid, until: mid + 86_400_000, limit: 51 },
      ],
      [
        'business + action + a month',
        support.cookie,
        { businessId: 'b000042', action: 'patient.read', since: mid, until: mid + 30 * 86_400_000 },
        { businesses: ['b000042'], action: 'patient.read', since: mid, until: mid + 30 * 86_400_000, limit: 51 },
      ],
      [
        'patient + a month',
        support.cookie,
        { patientId: 'p004242', since: mid, until: mid + 30 * 86_400_000 },
        { businesses: null, patientId: 'p004242', since: mid, until: mid + 30 * 86_400_000, limit: 51 },
      ],
      ['pharmacy Admin of 3 businesses', admin.cookie, {}, { businesses, limit: 51 }],
      [
        'pharmacy Admin, by patient',
        admin.cookie,
        { patientId: 'p004242' },
        { businesses, patientId: 'p004242', limit: 51 },
      ],
      [
        'page 2 of a business (nextToken)',
        support.cookie,
        { businessId: 'b000042', nextToken: first.nextToken },
        { businesses: ['b000042'], limit: 51 },
      ],
    ];
    const version = (await sql<{ v: string }>`select version() as v`.execute(db)).rows[0]?.v ?? '';
    log(`\n${version.split(',')[0]}; ${new Date().toISOString()}; ${RUNS} runs each (after one warm-up)\n`);
    log('| filter | entries on the page | RPC p50 | RPC p95 | bare p50 | RPC ÷ bare (p50) | ≤ 200 ms |');
    log('|---|---|---|---|---|---|---|');
    for (const [name, cookie, input, bare] of shapes) {
      const page = await call(cookie, input);
      await searchAudit(db, bare);
      const rpc: number[] = [];
      const raw: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        let t = performance.now();
        await call(cookie, input);
        rpc.push(performance.now() - t);
        t = performance.now();
        await searchAudit(db, bare);
        raw.push(performance.now() - t);
      }
      const p50 = quantile(rpc, 0.5);
      const p95 = quantile(rpc, 0.95);
      const b50 = quantile(raw, 0.5);
      log(
        `| ${name} | ${page.entries.length} | ${p50.toFixed(1)} ms | ${p95.toFixed(1)} ms | ${b50.toFixed(1)} ms | ${(p50 / b50).toFixed(2)} | ${p95 <= 200 ? 'yes' : '**no**'} |`,
      );
    }
  } finally {
    await close();
    if (!args.keep) await adminQuery(base, `drop database ${DB_NAME}`);
  }
}

await main();
