/**
 * bench/reports/trigger-cost: what migration 0028's change-log triggers add to the writes they
 * watch, on PostgreSQL. Inserts BATCHES statements of ROWS patients, then of order events, alternating
 * the trigger on and off (ALTER TABLE … DISABLE TRIGGER) in the same run; the ratio on ÷ off is the cost.
 * Run: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/reports/trigger-cost.ts
 */
import { sql } from 'kysely';
import pg from 'pg';
import { createDb, migrateToLatest } from '../../db/src/index.ts';

const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!base) throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
const DB_NAME = 'medlocker_bench_trigger_cost';
const BATCHES = Number(process.env.BATCHES ?? 40);
const ROWS = Number(process.env.ROWS ?? 1000);

async function admin(text: string) {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

await admin(`drop database if exists ${DB_NAME} with (force)`);
await admin(`create database ${DB_NAME}`);
const url = new URL(base);
url.pathname = `/${DB_NAME}`;
const { db, close } = await createDb({ kind: 'postgres', url: url.toString(), max: 2 });
try {
  await migrateToLatest(db);
  await sql`insert into businesses (id, name, created, updated) values ('b1', 'B', 1, 1)`.execute(db);
  let n = 0;
  const patients = () =>
    sql.raw(`insert into patients (id, business_id, display_id, given_name, family_name, full_name, created, updated)
      select 'p' || (${n} + i), 'b1', 'D' || (${n} + i), 'G', 'F', 'G F', ${Date.now()}, 1 from generate_series(1, ${ROWS}) i`);
  const events = () =>
    sql.raw(`insert into order_events (id, business_id, order_id, order_reference, code, created)
      select 'e' || (${n} + i), 'b1', 'o1', 'r', 'ORDER_CREATED', ${Date.now()} from generate_series(1, ${ROWS}) i`);
  await sql`insert into patients (id, business_id, display_id, full_name, created, updated) values ('p0', 'b1', 'D0', 'P', 1, 1)`.execute(
    db,
  );
  await sql`insert into orders (id, reference, business_id, business_name, patient_id, patient_name, barcode,
    collection_window, created_via, created, updated) values ('o1', 'r', 'b1', 'B', 'p0', 'P', 'BC1', 2, 'portal', 1, 1)`.execute(
    db,
  );
  const time: Record<string, number[]> = {};
  for (const [table, trigger, statement] of [
    ['patients', 'monthly_stats_patients_insert', patients],
    ['order_events', 'monthly_stats_order_events_insert', events],
  ] as const) {
    for (let b = 0; b < BATCHES; b++) {
      const on = b % 2 === 0;
      await sql.raw(`alter table ${table} ${on ? 'enable' : 'disable'} trigger ${trigger}`).execute(db);
      const t0 = performance.now();
      await statement().execute(db);
      n += ROWS;
      const key = `${table} ${on ? 'on' : 'off'}`;
      const list = time[key] ?? [];
      list.push(performance.now() - t0);
      time[key] = list;
    }
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1] as number;
  console.log(`| statement of ${ROWS} rows | trigger off, median | trigger on, median | on ÷ off |`);
  console.log('|---|---|---|---|');
  for (const table of ['patients', 'order_events']) {
    const off = median(time[`${table} off`] ?? []);
    const on = median(time[`${table} on`] ?? []);
    console.log(`| insert into ${table} | ${off.toFixed(1)} ms | ${on.toFixed(1)} ms | ${(on / off).toFixed(2)} |`);
  }
} finally {
  await close();
  await admin(`drop database if exists ${DB_NAME} with (force)`);
}
