import { sql } from 'kysely';
import type { Db } from './repository.ts';

/*
 * Usage stats' reads: each query is bounded by an index, for one business or the estate.
 * - live orders: orders_business_current_idx (0005, partial: new and loaded) counted index-only;
 * - orders in lockers: orders_loaded_machine_idx (0029, partial: loaded);
 * - bags in lockers by machine, and those to take out: bags_business_machine_idx (0005, partial: in a machine);
 * - machines: the machines table (thousands of rows for the estate, never the orders);
 * - messages waiting: message_outbox_business_pending_idx (0029) or message_outbox_due_idx (0005);
 * - collections of the period: orders_business_collected_idx (0005) or orders_collected_idx (0029),
 *   counted per hour in SQL (London's weekday and hour of each are the service's), and the collecting
 *   patients' ages through one index-only lookup each (patients_id_birth_idx, 0029).
 * `businessId` null is the whole estate.
 */

const businessFilter = (column: string, businessId: string | null) =>
  businessId === null ? sql`` : sql`and ${sql.ref(column)} = ${businessId}`;

/** Orders new or loaded now. */
export async function countLiveOrders(db: Db, businessId: string | null): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`
    select count(*) as n from orders
    where status in ('new', 'loaded') ${businessFilter('business_id', businessId)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Loaded orders by machine (a loaded order without a machine counts under machineId null). */
export async function loadedByMachine(
  db: Db,
  businessId: string | null,
): Promise<{ machineId: string | null; count: number }[]> {
  const { rows } = await sql<{ machine_id: string | null; n: string | number }>`
    select machine_id, count(*) as n from orders
    where status = 'loaded' ${businessFilter('business_id', businessId)}
    group by business_id, machine_id`.execute(db);
  return rows.map((r) => ({ machineId: r.machine_id, count: Number(r.n) }));
}

/**
 * Bags inside lockers by machine: cancelled and expired orders' too (they fill a slot until taken
 * out) and those waiting for their order, not those staff marked collected or removed.
 */
export async function bagsByMachine(
  db: Db,
  businessId: string | null,
): Promise<{ machineId: string | null; count: number }[]> {
  const { rows } = await sql<{ machine_id: string; n: string | number }>`
    select b.machine_id, count(*) as n from bags b
    left join orders o on o.id = b.order_id
    where b.machine_id is not null ${businessFilter('b.business_id', businessId)}
      and (o.status is null or o.status not in ('collected', 'removed'))
    group by b.business_id, b.machine_id`.execute(db);
  return rows.map((r) => ({ machineId: r.machine_id, count: Number(r.n) }));
}

export type UsageMachineRow = {
  id: string;
  name: string;
  businessId: string;
  businessName: string;
  numberOfSlots: number;
  online: boolean;
  lastSeen: number | null;
  outOfOrderAt: number | null;
};

/** Active machines: not archived, not test machines, of businesses not archived. */
export async function activeMachines(db: Db, businessId: string | null): Promise<UsageMachineRow[]> {
  let query = db
    .selectFrom('machines as m')
    .innerJoin('businesses as b', 'b.id', 'm.business_id')
    .select([
      'm.id',
      'm.name',
      'm.business_id',
      'b.name as business_name',
      'm.number_of_slots',
      'm.online',
      'm.last_seen',
      'm.out_of_order_at',
    ])
    .where('m.archived_at', 'is', null)
    .where('m.is_test', '=', false);
  query =
    businessId === null ? query.where('b.archived_at', 'is', null) : query.where('m.business_id', '=', businessId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    businessId: r.business_id,
    businessName: r.business_name,
    numberOfSlots: Number(r.number_of_slots),
    online: r.online,
    lastSeen: r.last_seen === null ? null : Number(r.last_seen),
    outOfOrderAt: r.out_of_order_at === null ? null : Number(r.out_of_order_at),
  }));
}

/** Messages in the outbox still to be sent, and when the oldest was written. */
export async function messagesWaiting(
  db: Db,
  businessId: string | null,
): Promise<{ count: number; oldestCreated: number | null }> {
  const { rows } = await sql<{ n: string | number; oldest: string | number | null }>`
    select count(*) as n, min(created) as oldest from message_outbox
    where status = 'pending' ${businessFilter('business_id', businessId)}`.execute(db);
  const row = rows[0];
  return { count: Number(row?.n ?? 0), oldestCreated: row?.oldest == null ? null : Number(row.oldest) };
}

/**
 * The period's collections by hour (ms since the epoch / 3,600,000): an integer division per index
 * entry (an index-only scan), at most 24 × the period's days rows. London's offset is always whole
 * hours, so each hour is one London weekday, hour and month (read in the service).
 */
export async function collectionsByHour(
  db: Db,
  q: { businessId: string | null; from: number; to: number },
): Promise<{ hour: number; count: number }[]> {
  const { rows } = await sql<{ hour: string | number; n: string | number }>`
    select collected / 3600000 as hour, count(*) as n from orders
    where collected is not null and collected >= ${q.from} and collected < ${q.to}
      ${businessFilter('business_id', q.businessId)}
    group by 1`.execute(db);
  return rows.map((r) => ({ hour: Number(r.hour), count: Number(r.n) }));
}

/**
 * The patients who collected in the period (each once, whatever they collected), counted by their age
 * in whole years on `onDay` (YYYY-MM-DD). Patients without a date of birth are left out.
 */
export async function collectingPatientAges(
  db: Db,
  q: { businessId: string | null; from: number; to: number; onDay: string },
): Promise<{ age: number; count: number }[]> {
  const { rows } = await sql<{ age: string | number; n: string | number }>`
    select date_part('year', age(${q.onDay}::date, p.date_of_birth::date)) as age, count(*) as n
    from (
      select distinct patient_id from orders
      where collected is not null and collected >= ${q.from} and collected < ${q.to}
        ${businessFilter('business_id', q.businessId)}
    ) c
    -- One index-only lookup per collecting patient (patients_id_birth_idx), never a scan of them all.
    cross join lateral (select date_of_birth from patients where id = c.patient_id limit 1) p
    where p.date_of_birth is not null
    group by 1`.execute(db);
  return rows.map((r) => ({ age: Number(r.age), count: Number(r.n) }));
}
