/**
 * bench/reports/run: every report call timed through the real RPC path on
 * PostgreSQL, with 1,000,000 orders and about 10,000,000 events. On demand only, never part of `npm test`.
 *
 * 1. A database `medlocker_bench_reports` is created beside the one in the URL (dropped first, and
 *    afterwards unless --keep), migrated, and filled by bench/reports/generate.ts in bulk SQL: BUSINESSES
 *    businesses with a machine and 200 patients each, and the 12 London months up to this one of
 *    ORDERS orders through their lifecycle (about 10 events each: order events, messages, machine
 *    events). Then: the patients' dates of birth, a group of 50 of the businesses, and a month of
 *    minute temperature readings for business 1's machine (the evidence pack's). The generator writes
 *    about 5 events an order; routine locker events (door opened/closed, info) make up the 10,000,000.
 *    Then `vacuum analyze`, as autovacuum would have done to tables that old (without it the counts'
 *    index-only scans fetch every heap row the load just wrote).
 * 2. The `stats.monthly` job runs once (it consumes the change log the triggers wrote as the estate was
 *    made), so the monthly figures are there as they would be.
 * 3. The real app (createApp, real session auth) listens on a local port; a support and a pharmacy
 *    (business 1) session call every report over HTTP, one call at a time: WARMUP calls, then RUNS
 *    timed ones each. The baseline, timed the same way in the same run: `auth/session` (the cheapest
 *    signed-in RPC: the same HTTP, session check and JSON path, no report) and a bare `select 1` round
 *    trip. p95 ÷ the baseline's p95 is the figure to compare across machines.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/reports/run.ts [--keep] [--reuse]
 *   Smaller for a quick try: REPORTS_BENCH_ORDERS=100000 REPORTS_BENCH_BUSINESSES=100 (defaults
 *   1,000,000 and 1,000); REPORTS_BENCH_RUNS (default 50), REPORTS_BENCH_WARMUP (default 5).
 *   --reuse: keep the database of an earlier --keep run (no drop, no load, no job).
 * **Goal: every report call p95 ≤ 100 ms.**
 */

import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { londonDayStart, londonIsoDate } from '@medlocker/core';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { createDb, type Database, migrateToLatest } from '../../db/src/index.ts';
import { createApp } from '../../packages/api/src/app.ts';
import { runMonthlyStats } from '../../packages/api/src/areas/reports/monthly-job-repository.ts';
import { signInTestUser } from '../../packages/api/src/testing/sessions.ts';
import { adminQuery } from '../admin-query.ts';
import { benchDeps } from '../app-deps.ts';
import { businessId, generateEstate } from './generate.ts';

const { values: args } = parseArgs({
  options: { keep: { type: 'boolean', default: false }, reuse: { type: 'boolean', default: false } },
});
const ORDERS = Number(process.env.REPORTS_BENCH_ORDERS ?? 1_000_000);
const BUSINESSES = Number(process.env.REPORTS_BENCH_BUSINESSES ?? 1000);
const RUNS = Number(process.env.REPORTS_BENCH_RUNS ?? 50);
const WARMUP = Number(process.env.REPORTS_BENCH_WARMUP ?? 5);
const DB_NAME = 'medlocker_bench_reports';
const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!base) throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
const log = (line: string) => console.log(line);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const n = (x: number) => x.toLocaleString('en-GB');

/** The 12 London months ending with this one, oldest first. */
function lastMonths(now: number): [number, number][] {
  const [y, m] = londonIsoDate(now).split('-').map(Number) as [number, number];
  return Array.from({ length: 12 }, (_, i) => {
    const index = y * 12 + (m - 1) - (11 - i);
    return [Math.floor(index / 12), (index % 12) + 1] as [number, number];
  });
}

/** Routine machine events (info) until order events + messages + machine events reach `target`. */
export async function topUpMachineEvents(
  db: Kysely<Database>,
  target: number,
  businesses: number,
  from: number,
  to: number,
) {
  const { rows } = await sql<{
    n: string;
  }>`select (select count(*) from order_events) + (select count(*) from message_outbox)
    + (select count(*) from machine_events) as n`.execute(db);
  const perMachine = Math.ceil(Math.max(0, target - Number(rows[0]?.n)) / businesses);
  if (perMachine === 0) return;
  const step = Math.floor((to - from) / perMachine);
  await sql`insert into machine_events (id, business_id, machine_id, code, level, created)
    select 'mr' || lpad(b::text, 7, '0') || lpad(k::text, 6, '0'),
      'b' || lpad(b::text, 7, '0') || '-0000-7000-8000-000000000000', 'm' || lpad(b::text, 7, '0') || '-0000-7000-8000-000000000000',
      case when k % 2 = 0 then 'EM_0017' else 'EM_0018' end, 'info', ${from}::bigint + k::bigint * ${step} + b
    from generate_series(1, ${businesses}) b, generate_series(0, ${perMachine - 1}) k`.execute(db);
}

/** The first London day of those 12 months, YYYY-MM-DD. */
const firstDay = (now: number) => {
  const [y, m] = lastMonths(now)[0] as [number, number];
  return `${y}-${String(m).padStart(2, '0')}-01`;
};

const url = new URL(base);
url.pathname = `/${DB_NAME}`;
if (!args.reuse) {
  await adminQuery(base, `drop database if exists ${DB_NAME} with (force)`);
  await adminQuery(base, `create database ${DB_NAME}`);
}
const opened = await createDb({ kind: 'postgres', url: url.toString(), max: 10 });
const { db } = opened;
const now = Date.now();
const GROUP = Math.min(50, BUSINESSES);
const groupId = 'g0000001-0000-7000-8000-000000000000';
const machine1 = 'm0000001-0000-7000-8000-000000000000';
let server: { stop: (force?: boolean) => Promise<void> } | undefined;
try {
  await migrateToLatest(db);
  if (!args.reuse) {
    const g0 = performance.now();
    const made = await generateEstate(
      db,
      {
        businesses: BUSINESSES,
        months: lastMonths(now),
        ordersPerBusinessMonth: Math.max(1, Math.ceil(ORDERS / BUSINESSES / 12)),
        patientsPerBusiness: 200,
      },
      log,
    );
    // The generator writes about 5 events an order; the 10,000,000 are made up with routine
    // locker events (door opened/closed, EM_0017/EM_0018 info: about 14 a machine a day) over the 12 months.
    await topUpMachineEvents(db, 10 * ORDERS, BUSINESSES, londonDayStart(firstDay(now)), now);
    // Dates of birth (ages 10–89) for the usage stats' age ranges; a group; the evidence pack's readings.
    await sql`update patients set date_of_birth = to_char(date '1937-01-01' + (hashtext(id) & 32767), 'YYYY-MM-DD')`.execute(
      db,
    );
    await sql`insert into groups (id, name, created, updated) values (${groupId}, 'Bench Group', ${now}, ${now})`.execute(
      db,
    );
    await sql`update businesses set group_id = ${groupId} where id <= ${businessId(GROUP)}`.execute(db);
    await sql`insert into temperature_readings (business_id, machine_id, created, value)
      select ${businessId(1)}, ${machine1}, ${now}::bigint - i::bigint * 60000, 20 + 6 * sin(i / 500.0)
      from generate_series(1, 31 * 1440) i`.execute(db);
    await sql`vacuum analyze`.execute(db);
    const machineEvents = Number(
      (await sql<{ n: string }>`select count(*) as n from machine_events`.execute(db)).rows[0]?.n,
    );
    const events = made.orderEvents + made.messages + machineEvents;
    log(
      `estate: ${n(BUSINESSES)} businesses, ${n(made.patients)} patients, ${n(made.orders)} orders, ${n(made.orderEvents)} order events + ${n(made.messages)} messages + ${n(machineEvents)} machine events = ${n(events)} events (${s(performance.now() - g0)})`,
    );
    const j0 = performance.now();
    const job = await runMonthlyStats(db, now, { batch: 10_000_000 });
    log(`monthly job: ${job.months} months recomputed, ${job.changed} rows written in ${s(performance.now() - j0)}`);
    await sql`vacuum analyze`.execute(db);
  }

  const deps = benchDeps(opened, { NODE_ENV: 'test', LOG_LEVEL: 'warn', PUBLIC_URL: 'http://127.0.0.1' });
  const support = await signInTestUser(db, now, { support: true });
  const pharmacy = await signInTestUser(db, now, {
    roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId(1) }],
  });
  const port = 40_000 + Math.floor(Math.random() * 10_000);
  server = createApp(deps).listen({ port, hostname: '127.0.0.1' }) as unknown as typeof server;

  const call = async (cookie: string, method: string, input: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1', cookie },
      body: JSON.stringify(input),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${JSON.stringify(input)}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const time = async (run: () => Promise<unknown>) => {
    for (let i = 0; i < WARMUP; i++) await run();
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await run();
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)] as number;
    return { p50: at(0.5), p95: at(0.95), max: ms[ms.length - 1] as number };
  };

  // The calls. Ranges: a short one (a week of last month) and a long one (the 12 months to today).
  const today = londonIsoDate(now);
  const [ty, tm] = today.split('-').map(Number) as [number, number];
  const lastMonth = tm === 1 ? `${ty - 1}-12` : `${ty}-${String(tm - 1).padStart(2, '0')}`;
  const ranges = {
    week: { startDate: `${lastMonth}-10`, endDate: `${lastMonth}-16` },
    year: { startDate: firstDay(now), endDate: today },
  };
  const filters = ['All', 'Paid', 'PIN revealed', 'Exemption Declared', 'No Charge'] as const;
  type Case = { name: string; cookie: string; method: string; input: Record<string, unknown>; rows?: string };
  const cases: Case[] = [];
  for (const filterType of filters) {
    for (const [rangeName, range] of Object.entries(ranges)) {
      const input = { businessId: businessId(1), filterType, ...range };
      const first = await call(pharmacy.cookie, 'reports/listCollectionStats', input);
      cases.push({
        name: `listCollectionStats ${filterType}, ${rangeName}, first page`,
        cookie: pharmacy.cookie,
        method: 'reports/listCollectionStats',
        input,
        rows: String((first.records as unknown[]).length),
      });
      // A later page: the fourth (or the last there is).
      let token = first.nextToken as string | null;
      let page = 1;
      let later: Record<string, unknown> | undefined;
      while (token && page < 4) {
        later = { ...input, nextToken: token };
        const next = await call(pharmacy.cookie, 'reports/listCollectionStats', later);
        token = next.nextToken as string | null;
        page++;
      }
      if (later) {
        cases.push({
          name: `listCollectionStats ${filterType}, ${rangeName}, page ${page}`,
          cookie: pharmacy.cookie,
          method: 'reports/listCollectionStats',
          input: later,
        });
      }
    }
  }
  const statsFirst = await call(pharmacy.cookie, 'reports/listBusinessStats', { businessId: businessId(1) });
  cases.push(
    {
      name: 'listBusinessStats, first page',
      cookie: pharmacy.cookie,
      method: 'reports/listBusinessStats',
      input: { businessId: businessId(1) },
    },
    {
      name: 'listBusinessStats, next page',
      cookie: pharmacy.cookie,
      method: 'reports/listBusinessStats',
      input: { businessId: businessId(1), nextToken: statsFirst.nextToken },
    },
    {
      name: `groupReports/listMonthlyStats, ${GROUP} businesses × 12 months`,
      cookie: support.cookie,
      method: 'groupReports/listMonthlyStats',
      input: {
        groupId,
        endYear: ty,
        endMonth: tm,
        selectedBusinessIds: Array.from({ length: GROUP }, (_, i) => businessId(i + 1)),
      },
    },
    { name: 'getUsageStats, estate (support)', cookie: support.cookie, method: 'reports/getUsageStats', input: {} },
    {
      name: 'getUsageStats, one business (pharmacy)',
      cookie: pharmacy.cookie,
      method: 'reports/getUsageStats',
      input: { businessId: businessId(1) },
    },
    {
      name: 'evidence/getEvidencePack, machine 1, 7 days',
      cookie: pharmacy.cookie,
      method: 'evidence/getEvidencePack',
      input: { machineId: machine1, from: londonDayStart(today, -7), to: now },
    },
    {
      name: 'evidence/getEvidencePack, machine 1, 31 days',
      cookie: pharmacy.cookie,
      method: 'evidence/getEvidencePack',
      input: { machineId: machine1, from: now - 31 * 86_400_000 + 60_000, to: now },
    },
  );

  const pool = new pg.Client({ connectionString: url.toString() });
  await pool.connect();
  const bareSql = await time(() => pool.query('select 1'));
  await pool.end();
  const bareRpc = await time(() => call(pharmacy.cookie, 'auth/session', {}));
  const results: { c: Case; r: Awaited<ReturnType<typeof time>> }[] = [];
  for (const c of cases) {
    const r = await time(() => call(c.cookie, c.method, c.input));
    results.push({ c, r });
    log(`  ${c.name}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(1)} ms`);
  }

  const f = (ms: number) => ms.toFixed(1);
  log('');
  log(
    `bench/reports/run ${new Date().toISOString()}: ${n(ORDERS)} orders, ${n(BUSINESSES)} businesses, ${RUNS} timed calls each after ${WARMUP} warm-up`,
  );
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GB (${Math.round(freemem() / 2 ** 30)} free), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  log('');
  log('| call | p50 ms | p95 ms | max ms | p95 ÷ baseline p95 | goal p95 ≤ 100 ms |');
  log('|---|---|---|---|---|---|');
  log(`| baseline: \`select 1\` round trip | ${f(bareSql.p50)} | ${f(bareSql.p95)} | ${f(bareSql.max)} | – | – |`);
  log(`| baseline: auth/session RPC | ${f(bareRpc.p50)} | ${f(bareRpc.p95)} | ${f(bareRpc.max)} | 1 | – |`);
  let failed = 0;
  for (const { c, r } of results) {
    const ok = r.p95 <= 100;
    if (!ok) failed++;
    log(
      `| ${c.name} | ${f(r.p50)} | **${f(r.p95)}** | ${f(r.max)} | ${(r.p95 / bareRpc.p95).toFixed(1)} | ${ok ? 'met' : '**not met**'} |`,
    );
  }
  log('');
  log(failed === 0 ? 'every call met the goal' : `${failed} call(s) over 100 ms p95`);
} finally {
  await server?.stop(true);
  await opened.close();
  if (!args.keep) await adminQuery(base, `drop database if exists ${DB_NAME} with (force)`);
}
