/**
 * bench/reports/monthly-job: the `stats.monthly` job for one month of 1,000 businesses on
 * PostgreSQL. On demand only, never part of `npm test`.
 *
 * Data (bench/reports/generate.ts): BUSINESSES businesses with one machine and PATIENTS patients each,
 * and one London month of ORDERS orders per business through their lifecycle, with their order events,
 * patient messages and machine events. The triggers of migration 0028 record what changed as the
 * estate is written, as they would in production.
 *
 * 1. **job**: `runMonthlyStats` as the scheduled job runs it just after the month ends (its clock at the
 *    next month's first hour): it recomputes every (business, month) the change rows name.
 * 2. **rebuild**: `rebuildMonthlyStats` of every business for the month alone (1,000 rows recomputed),
 *    then again: the second must change 0 rows.
 * 3. **bare**: the database alone reading the month: one GROUP BY over the month's order events,
 *    messages and machine events of all businesses (no per-business work, nothing written). The
 *    ratio job ÷ bare is the figure to compare across machines.
 *
 * Run from the repo root:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/reports/monthly-job.ts
 *     [--businesses 1000] [--orders 100] [--patients 200] [--month 2026-10] [--keep]
 * A database `medlocker_bench_reports` is created beside the one in the URL, dropped afterwards unless --keep.
 * **Goal: the job for one month of 1,000 businesses under 60 s.**
 */

import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createDb, migrateToLatest } from '../../db/src/index.ts';
import { monthBounds } from '../../packages/api/src/areas/reports/monthly-compute-repository.ts';
import { rebuildMonthlyStats, runMonthlyStats } from '../../packages/api/src/areas/reports/monthly-job-repository.ts';
import { monthIndex } from '../../packages/api/src/areas/reports/monthly-repository.ts';
import { adminQuery } from '../admin-query.ts';
import { businessId, generateEstate } from './generate.ts';

const { values: args } = parseArgs({
  options: {
    businesses: { type: 'string', default: '1000' },
    orders: { type: 'string', default: '100' },
    patients: { type: 'string', default: '200' },
    month: { type: 'string', default: '2026-10' },
    keep: { type: 'boolean', default: false },
  },
});
const BUSINESSES = Number(args.businesses);
const [YEAR, MONTH] = (args.month as string).split('-').map(Number) as [number, number];
const DB_NAME = 'medlocker_bench_reports';
const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!base) throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
const log = (line: string) => console.log(line);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const url = new URL(base as string);
  url.pathname = `/${DB_NAME}`;
  await adminQuery(base, `drop database if exists ${DB_NAME} with (force)`);
  await adminQuery(base, `create database ${DB_NAME}`);
  const { db, close } = await createDb({ kind: 'postgres', url: url.toString(), max: 4 });
  try {
    await migrateToLatest(db);
    const g0 = performance.now();
    const made = await generateEstate(
      db,
      {
        businesses: BUSINESSES,
        months: [[YEAR, MONTH]],
        ordersPerBusinessMonth: Number(args.orders),
        patientsPerBusiness: Number(args.patients),
      },
      log,
    );
    log(
      `estate: ${BUSINESSES} businesses, ${made.patients.toLocaleString('en-GB')} patients, ${made.orders.toLocaleString('en-GB')} orders, ${made.orderEvents.toLocaleString('en-GB')} order events, ${made.messages.toLocaleString('en-GB')} messages, ${made.machineEvents.toLocaleString('en-GB')} machine events (${s(performance.now() - g0)})`,
    );
    const index = monthIndex(YEAR, MONTH);
    const { start, end } = monthBounds(index);
    const changes = Number(
      (await sql<{ n: string }>`select count(*) as n from monthly_stats_changes`.execute(db)).rows[0]?.n,
    );

    // 3. bare, before and after the job.
    const bare = async () => {
      const t0 = performance.now();
      await sql`select business_id, code, count(*) from order_events where created >= ${start} and created < ${end} group by 1, 2`.execute(
        db,
      );
      await sql`select business_id, channel, status, count(*) from message_outbox where created >= ${start} and created < ${end} group by 1, 2, 3`.execute(
        db,
      );
      await sql`select business_id, code, count(*) from machine_events where created >= ${start} and created < ${end} group by 1, 2`.execute(
        db,
      );
      return performance.now() - t0;
    };
    const bare1 = await bare();

    // 1. The job, just after the month.
    const j0 = performance.now();
    const job = await runMonthlyStats(db, end + 3_600_000, { batch: 1_000_000 });
    const jobMs = performance.now() - j0;
    log(
      `job: ${changes.toLocaleString('en-GB')} change rows → ${job.months} months recomputed, ${job.changed} rows written in ${s(jobMs)}`,
    );

    // 2. Rebuild of the month alone (its clock inside the month's last hour: the month is the current one).
    const ids = Array.from({ length: BUSINESSES }, (_, i) => businessId(i + 1));
    const r0 = performance.now();
    const rebuild = await rebuildMonthlyStats(db, ids, index, end - 1);
    const rebuildMs = performance.now() - r0;
    const r1 = performance.now();
    const again = await rebuildMonthlyStats(db, ids, index, end - 1);
    const againMs = performance.now() - r1;
    log(
      `rebuild: ${rebuild.months} months, ${rebuild.changed} changed in ${s(rebuildMs)}; again: ${again.changed} changed in ${s(againMs)}`,
    );
    const bare2 = await bare();
    const bareMs = Math.min(bare1, bare2);
    log(`bare month read: ${s(bare1)}, ${s(bare2)}`);

    const sample = await db
      .selectFrom('monthly_business_stats')
      .selectAll()
      .where('business_id', '=', businessId(1))
      .where('year', '=', YEAR)
      .where('month', '=', MONTH)
      .executeTakeFirst();
    log(`business 1, ${args.month}: ${JSON.stringify(sample)}`);
    log('');
    log('| step | months recomputed | rows changed | time | ÷ bare | goal |');
    log('|---|---|---|---|---|---|');
    log(
      `| job (${changes.toLocaleString('en-GB')} change rows) | ${job.months} | ${job.changed} | **${s(jobMs)}** | ${(jobMs / bareMs).toFixed(1)} | < 60 s |`,
    );
    log(
      `| rebuild of the month | ${rebuild.months} | ${rebuild.changed} | **${s(rebuildMs)}** | ${(rebuildMs / bareMs).toFixed(1)} | < 60 s |`,
    );
    log(
      `| rebuild again | ${again.months} | ${again.changed} | ${s(againMs)} | ${(againMs / bareMs).toFixed(1)} | 0 changed |`,
    );
    log(`| bare month read (best of 2) | – | – | ${s(bareMs)} | 1 | – |`);
    if (again.changed !== 0) throw new Error('the second rebuild changed rows');
  } finally {
    await close();
    if (!args.keep) await adminQuery(base, `drop database if exists ${DB_NAME} with (force)`);
  }
}

await main();
