/**
 * The reports' bench estate, generated in SQL on PostgreSQL: businesses, one machine each,
 * patients, and orders taken through their lifecycle with their order events, patient messages and
 * machine events, spread over whole London months. Reusable: bench/reports/monthly-job.ts uses one
 * month of 1,000 businesses; the report calls' bench will want 1,000,000 orders and 10,000,000 events
 * (e.g. 1,000 businesses × 12 months × 84 orders a month ≈ 1,000,000 orders, about 9.6 events each
 * with the messages' and machines' rows).
 *
 * Every row's time falls inside its month; ids sort as they were made (like uuidv7). Lifecycle mix, by
 * the order's number k within its business: 5% cancelled a minute after creation, 10% never loaded,
 * the others loaded an hour after creation; of all orders 5% expired (48 h later) and removed, about
 * 16% still loaded, the rest (about 64%) collected 1–47 hours after loading (1 in 10 of them marked
 * collected by staff). 10% have their PIN revealed; 20% paid £9.90 by card; 10% declare an exemption (the orders' columns
 * payment_status, amount_paid, pin_revealed_at and exemption_code agree with their events).
 * ORDER_LOADED names its machine (data.machineId), as the api writes it (the evidence pack reads it).
 * Messages: orderReady and orderCollected by SMS (1 in 50 failed), an email receipt for the paid.
 * Machines: per business a month of 6 alarms (EM_0003, EM_0016, MP_0001), 4 routine events, and one
 * offline/online pair (an hour down).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/src/index.ts';

export type EstateShape = {
  businesses: number;
  /** London months as [year, month] pairs, in order. */
  months: [number, number][];
  ordersPerBusinessMonth: number;
  patientsPerBusiness: number;
};

export const businessId = (n: number) => `b${String(n).padStart(7, '0')}-0000-7000-8000-000000000000`;

/** Start and end (ms) of a London month, computed by PostgreSQL's own time zone data. */
async function monthSpan(db: Kysely<Database>, year: number, month: number): Promise<{ start: number; end: number }> {
  const { rows } = await sql<{ start: string; end: string }>`
    select (extract(epoch from (make_date(${year}, ${month}, 1)::timestamp at time zone 'Europe/London')) * 1000)::bigint as start,
      (extract(epoch from ((make_date(${year}, ${month}, 1) + interval '1 month')::timestamp at time zone 'Europe/London')) * 1000)::bigint as end`.execute(
    db,
  );
  return { start: Number(rows[0]?.start), end: Number(rows[0]?.end) };
}

/** Generates the estate; returns how many rows of each kind it wrote. */
export async function generateEstate(
  db: Kysely<Database>,
  shape: EstateShape,
  log: (line: string) => void = () => {},
): Promise<{ orders: number; orderEvents: number; messages: number; machineEvents: number; patients: number }> {
  const B = shape.businesses;
  const created = (await monthSpan(db, shape.months[0]?.[0] ?? 2026, shape.months[0]?.[1] ?? 1)).start;
  await sql
    .raw(`insert into businesses (id, name, email, post_town, postcode, created, updated)
      select 'b' || lpad(i::text, 7, '0') || '-0000-7000-8000-000000000000', 'Bench Pharmacy ' || i, null, 'Leeds', 'LS1 6HD', ${created}, ${created}
      from generate_series(1, ${B}) i`)
    .execute(db);
  await sql
    .raw(`insert into machines (id, business_id, name, number_of_slots, created, updated)
      select 'm' || lpad(i::text, 7, '0') || '-0000-7000-8000-000000000000', 'b' || lpad(i::text, 7, '0') || '-0000-7000-8000-000000000000',
        'Locker 1', 60, ${created}, ${created}
      from generate_series(1, ${B}) i`)
    .execute(db);
  const P = shape.patientsPerBusiness;
  await sql
    .raw(`insert into patients (id, business_id, display_id, given_name, family_name, full_name, mobile_number, created, updated)
      select 'p' || lpad(i::text, 10, '0'), 'b' || lpad((1 + (i - 1) / ${P})::text, 7, '0') || '-0000-7000-8000-000000000000',
        'D' || i, 'Given', 'Family' || i, 'Given Family' || i, '+447700900' || lpad((i % 1000)::text, 3, '0'),
        ${created - 86_400_000}, ${created - 86_400_000}
      from generate_series(1, ${B * P}) i`)
    .execute(db);
  let orders = 0;
  for (const [mi, [year, month]] of shape.months.entries()) {
    const { start, end } = await monthSpan(db, year, month);
    const N = B * shape.ordersPerBusinessMonth;
    // Orders are created in the first 85% of the month so that their lifecycle (at most 2 days) ends in it.
    const span = Math.floor((end - start) * 0.85);
    const t0 = performance.now();
    // The month's orders in a temporary table (dropped at commit), then their rows in every table.
    await db.transaction().execute(async (tx) => {
      await sql
        .raw(`create temporary table bench_orders on commit drop as
          select o.*, 'b' || lpad(o.b::text, 7, '0') || '-0000-7000-8000-000000000000' as business_id,
            'p' || lpad(((o.b - 1) * ${P} + 1 + o.i % ${P})::text, 10, '0') as patient_id,
            'm' || lpad(o.b::text, 7, '0') || '-0000-7000-8000-000000000000' as machine_id,
            lpad(to_hex(o.n), 12, '0') || '-7000-8000-' || substr(md5(o.n::text), 1, 12) as id,
            o.created + 3600000 as loaded_at,
            o.created + 3600000 + 3600000 * (1 + o.k % 47) as collected_at,
            case when o.k % 20 = 3 then 'cancelled' when o.k % 10 = 9 then 'new'
              when o.k % 20 = 7 then 'removed' when o.k % 5 = 4 then 'loaded' else 'collected' end as st
          from (
            select ${orders} + i as n, (i - 1) / ${B} as k, i, 1 + (i - 1) % ${B} as b,
              ${start}::bigint + (i::bigint * ${Math.max(1, Math.floor(span / Math.max(1, N)))}) as created
            from generate_series(1, ${N}) i
          ) o`)
        .execute(tx);
      await sql
        .raw(`insert into orders (id, reference, business_id, business_name, patient_id, patient_name, barcode,
            machine_id, status, collection_window, expires_at, collected, payment_status, amount_paid,
            exemption_code, pin_revealed_at, created_via, created, updated)
          select id, lpad(n::text, 8, '0'), business_id, 'Bench Pharmacy', patient_id, 'Given Family', 'BC' || n,
            case when st in ('loaded', 'collected', 'removed') then machine_id end, st::text, 2,
            case when st in ('loaded', 'collected', 'removed') then loaded_at + 172800000 end,
            case when st = 'collected' then collected_at end,
            case when k % 5 = 0 then 'paid' else 'not_required' end, case when k % 5 = 0 then 990 else 0 end,
            case when k % 10 = 5 then (array['A','B','D','E','F','G','L','H','K','M','S','U','W'])[1 + k % 13] end,
            case when st <> 'cancelled' and k % 10 = 2 then loaded_at + 60000 end, 'portal', created, created
          from bench_orders`)
        .execute(tx);
      const ev = (code: string, at: string, where: string, data = `'{}'`) =>
        `select id || '-${code}', business_id, id, lpad(n::text, 8, '0'), patient_id, '${code}', ${data}::jsonb, ${at}
          from bench_orders where ${where}`;
      await sql
        .raw(`insert into order_events (id, business_id, order_id, order_reference, patient_id, code, data, created)
          ${[
            ev('ORDER_CREATED', 'created', 'true'),
            ev(
              'ORDER_LOADED',
              'loaded_at',
              `st in ('loaded', 'collected', 'removed')`,
              `json_build_object('machineId', machine_id)`,
            ),
            ev('ORDER_COLLECTED', 'collected_at', `st = 'collected' and k % 10 <> 1`),
            ev('ORDER_MARKED_COLLECTED', 'collected_at', `st = 'collected' and k % 10 = 1`),
            ev('ORDER_EXPIRED', 'loaded_at + 172800000', `st = 'removed'`),
            ev('ORDER_REMOVED', 'loaded_at + 176400000', `st = 'removed'`),
            ev('ORDER_CANCELLED', 'created + 60000', `st = 'cancelled'`),
            ev('PIN_REVEALED', 'loaded_at + 60000', `st <> 'cancelled' and k % 10 = 2`),
            ev('PAYMENT_SUCCEEDED', 'created + 120000', `k % 5 = 0`, `'{"amount": 990}'`),
            ev(
              'EXEMPTION_DECLARED',
              'created + 180000',
              `k % 10 = 5`,
              `json_build_object('exemptionCode', (array['A','B','D','E','F','G','L','H','K','M','S','U','W'])[1 + k % 13])`,
            ),
          ].join(' union all ')}`)
        .execute(tx);
      const msg = (template: string, channel: string, at: string, where: string, status: string) =>
        `select id || '-${template}', business_id, id, patient_id, '${channel}', '+447700900000', '${template}', 'text',
            ${status}, ${at}, ${at}, ${at} from bench_orders where ${where}`;
      await sql
        .raw(`insert into message_outbox (id, business_id, order_id, patient_id, channel, recipient, template_key, body,
            status, next_attempt_at, created, updated)
          ${[
            msg(
              'orderReady',
              'sms',
              'loaded_at',
              `st in ('loaded', 'collected', 'removed')`,
              `case when k % 50 = 0 then 'failed' else 'success' end`,
            ),
            msg('orderCollected', 'sms', 'collected_at', `st = 'collected'`, `'success'`),
            msg('receipt', 'email', 'created + 120000', `k % 5 = 0`, `'success'`),
          ].join(' union all ')}`)
        .execute(tx);
    });
    // Machine events: alarms, routine events and an hour offline, per business, mid-month.
    const mid = start + Math.floor((end - start) / 2);
    await sql
      .raw(`insert into machine_events (id, business_id, machine_id, code, level, created)
        select 'me' || lpad(${mi}::text, 3, '0') || lpad(b::text, 7, '0') || lpad(k::text, 2, '0'),
          'b' || lpad(b::text, 7, '0') || '-0000-7000-8000-000000000000', 'm' || lpad(b::text, 7, '0') || '-0000-7000-8000-000000000000',
          (array['EM_0003','EM_0016','MP_0001','EM_0003','EM_0016','MP_0001','EM_0017','EM_0018','EM_0017','EM_0018','MP_0006','MP_0007'])[k],
          (array['critical','critical','error','critical','critical','error','info','info','info','info','warn','info'])[k],
          ${mid}::bigint + k * 3600000 + b
        from generate_series(1, ${B}) b, generate_series(1, 12) k`)
      .execute(db);
    orders += N;
    log(
      `  month ${year}-${String(month).padStart(2, '0')}: ${N.toLocaleString('en-GB')} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  await sql`analyze`.execute(db);
  const count = async (table: 'order_events' | 'message_outbox' | 'machine_events' | 'patients') =>
    Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]?.n);
  return {
    orders,
    orderEvents: await count('order_events'),
    messages: await count('message_outbox'),
    machineEvents: await count('machine_events'),
    patients: await count('patients'),
  };
}
