import { londonDayStart, type MonthlyBusinessStats, toIsoDate } from '@medlocker/core';
import { sql } from 'kysely';
import { fromMonthIndex, monthIndex } from './monthly-repository.ts';
import type { Db } from './repository.ts';

/*
 * The READING of one business's month from the raw data: what each monthly figure counts
 * (docs/decisions/reports.md, "Monthly figures"). monthly-job-repository.ts stores what this computes.
 */

const MINUTE_MS = 60_000;

/** A London calendar month as [start, end) in ms. */
export function monthBounds(index: number): { start: number; end: number } {
  const { year, month } = fromMonthIndex(index);
  const next = fromMonthIndex(index + 1);
  const day = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`;
  return { start: londonDayStart(day(year, month)), end: londonDayStart(day(next.year, next.month)) };
}

/** The London month (as a month index) of a moment. */
export function monthOf(at: number): number {
  const iso = toIsoDate(at);
  return monthIndex(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)));
}

/** Order event codes and the figure each one counts in. */
const COUNTED = {
  ORDER_CREATED: 'ordersAdded',
  ORDER_LOADED: 'ordersLoaded',
  ORDER_COLLECTED: 'ordersCollected',
  ORDER_MARKED_COLLECTED: 'ordersCollected',
  ORDER_EXPIRED: 'ordersExpired',
  ORDER_CANCELLED: 'ordersCancelled',
  ORDER_REMOVED: 'ordersRemoved',
  ORDER_MARKED_REMOVED: 'ordersRemoved',
  PIN_REVEALED: 'pinReveals',
} as const;
type Counted = (typeof COUNTED)[keyof typeof COUNTED];
const ORDER_CODES = [...Object.keys(COUNTED), 'PAYMENT_SUCCEEDED', 'PAYMENT_OVERPAID', 'EXEMPTION_DECLARED'];
const COLLECTION_CODES = ['ORDER_COLLECTED', 'ORDER_MARKED_COLLECTED'];

/** Machine events that change whether a machine is down: offline/online, out of order/in order, archived/unarchived. */
const STATE_CODES = {
  MP_0006: 'offline',
  MP_0007: 'online',
  MP_0003: 'out',
  MP_0002: 'in',
  MP_0004: 'archived',
  MP_0005: 'unarchived',
} as const;
type StateCode = keyof typeof STATE_CODES;
const STATE_PAIRS: StateCode[][] = [
  ['MP_0006', 'MP_0007'],
  ['MP_0003', 'MP_0002'],
  ['MP_0004', 'MP_0005'],
];

const sorted = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The exact median of whole minutes: the middle one, or the mean of the middle two rounded down. */
export function medianMinutes(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : Math.floor(((s[mid - 1] as number) + (s[mid] as number)) / 2);
}

/**
 * Minutes of [start, min(end, now)) during which each machine was down (offline or out of order, and not
 * archived), summed over machines in ms and then floored to whole minutes.
 */
async function downtimeMinutes(db: Db, businessId: string, start: number, end: number, now: number): Promise<number> {
  const until = Math.min(end, now);
  if (until <= start) return 0;
  const codes = Object.keys(STATE_CODES);
  // Each machine's state at the start: the latest event of each pair before it.
  const before = await sql<{ machine_id: string; code: StateCode }>`
    select m.id as machine_id, last.code
    from machines m
    cross join (values ${sql.join(STATE_PAIRS.map(([a, b]) => sql`(${a}::text, ${b}::text)`))}) as pair(a, b)
    cross join lateral (
      select e.code from machine_events e
      where e.business_id = m.business_id and e.machine_id = m.id and e.code in (pair.a, pair.b) and e.created < ${start}
      order by e.created desc, e.id desc limit 1
    ) last
    where m.business_id = ${businessId}`.execute(db);
  const during = await sql<{ machine_id: string; code: StateCode; created: number }>`
    select machine_id, code, created from machine_events
    where business_id = ${businessId} and created >= ${start} and created < ${until} and code in (${sql.join(codes)})
    order by machine_id, created, id`.execute(db);
  type State = { offline: boolean; out: boolean; archived: boolean; since: number };
  const machines = new Map<string, State>();
  const state = (id: string) => {
    let s = machines.get(id);
    if (!s) {
      s = { offline: false, out: false, archived: false, since: start };
      machines.set(id, s);
    }
    return s;
  };
  const apply = (s: State, code: StateCode) => {
    const what = STATE_CODES[code];
    if (what === 'offline' || what === 'online') s.offline = what === 'offline';
    else if (what === 'out' || what === 'in') s.out = what === 'out';
    else s.archived = what === 'archived';
  };
  const down = (s: State) => (s.offline || s.out) && !s.archived;
  for (const r of before.rows) apply(state(r.machine_id), r.code);
  let ms = 0;
  for (const e of during.rows) {
    const s = state(e.machine_id);
    const at = Number(e.created);
    if (down(s)) ms += at - s.since;
    apply(s, e.code);
    s.since = at;
  }
  for (const s of machines.values()) if (down(s)) ms += until - s.since;
  return Math.floor(ms / MINUTE_MS);
}

type Window = { businessId: string; start: number; end: number };

/** Orders added, loaded, collected…, the amount paid and the exemptions declared, from the order events. */
async function orderFigures(db: Db, { businessId, start, end }: Window) {
  // Every figure COUNTED adds to, from zero.
  const counts = Object.fromEntries(Object.values(COUNTED).map((figure) => [figure, 0])) as Record<Counted, number>;
  let paidAmount = 0;
  const exemptionsByCode: Record<string, number> = {};
  // Paid: the card payments that settled an order, less the part of one owed back to the patient
  // (PAYMENT_OVERPAID's `refund`, recorded with its PAYMENT_SUCCEEDED): what the orders were owed.
  const events = await sql<{ code: string; exemption: string | null; n: number; paid: number }>`
    select code, data->>'exemptionCode' as exemption, count(*) as n,
      coalesce(sum(case when code = 'PAYMENT_SUCCEEDED' then (data->>'amount')::bigint
        when code = 'PAYMENT_OVERPAID' then -(data->>'refund')::bigint end), 0) as paid
    from order_events
    where business_id = ${businessId} and created >= ${start} and created < ${end} and code in (${sql.join(ORDER_CODES)})
    group by 1, 2`.execute(db);
  for (const r of events.rows) {
    const n = Number(r.n);
    if (r.code === 'PAYMENT_SUCCEEDED' || r.code === 'PAYMENT_OVERPAID') paidAmount += Number(r.paid);
    else if (r.code === 'EXEMPTION_DECLARED') {
      const code = r.exemption ?? 'unknown';
      exemptionsByCode[code] = (exemptionsByCode[code] ?? 0) + n;
    } else counts[COUNTED[r.code as keyof typeof COUNTED]] += n;
  }
  return { ...counts, paidAmount, exemptionsByCode: sorted(exemptionsByCode) };
}

/** Collections: minutes from the order's first load, and whether before its expiry. */
async function collectionFigures(db: Db, { businessId, start, end }: Window) {
  const collections = await sql<{ created: number; loaded: number | null; expires_at: number | null }>`
    select e.created, o.expires_at,
      (select min(l.created) from order_events l
        where l.business_id = e.business_id and l.order_id = e.order_id and l.code = 'ORDER_LOADED') as loaded
    from order_events e join orders o on o.id = e.order_id
    where e.business_id = ${businessId} and e.created >= ${start} and e.created < ${end}
      and e.code in (${sql.join(COLLECTION_CODES)})`.execute(db);
  const pickups: number[] = [];
  let collectedWithinWindow = 0;
  for (const c of collections.rows) {
    const at = Number(c.created);
    if (c.expires_at !== null && at <= Number(c.expires_at)) collectedWithinWindow++;
    if (c.loaded !== null && Number(c.loaded) <= at) pickups.push(Math.floor((at - Number(c.loaded)) / MINUTE_MS));
  }
  return {
    collectedWithinWindow,
    totalPickupMinutes: pickups.reduce((a, b) => a + b, 0),
    medianPickupMinutes: medianMinutes(pickups),
  };
}

/** Patients' messages that reached an outcome, by channel. */
async function messageFigures(db: Db, { businessId, start, end }: Window) {
  const messages = await sql<{ channel: string; status: string; n: number }>`
    select channel, status, count(*) as n from message_outbox
    where business_id = ${businessId} and patient_id is not null and created >= ${start} and created < ${end}
      and status in ('success', 'failed')
    group by 1, 2`.execute(db);
  const messagesByChannel: Record<string, { sent: number; failed: number }> = {};
  let notificationsSent = 0;
  for (const r of messages.rows) {
    const c = messagesByChannel[r.channel] ?? { sent: 0, failed: 0 };
    if (r.status === 'success') {
      c.sent += Number(r.n);
      notificationsSent += Number(r.n);
    } else c.failed += Number(r.n);
    messagesByChannel[r.channel] = c;
  }
  return { notificationsSent, messagesByChannel: sorted(messagesByChannel) };
}

/** Alarms (error and critical machine events) by code, and the patients at the start and end of the month. */
async function estateFigures(db: Db, { businessId, start, end }: Window) {
  const alarms = await sql<{ code: string; n: number }>`
    select code, count(*) as n from machine_events
    where business_id = ${businessId} and created >= ${start} and created < ${end} and level in ('error', 'critical')
    group by 1`.execute(db);
  const alarmsByCode: Record<string, number> = {};
  for (const r of alarms.rows) alarmsByCode[r.code] = Number(r.n);
  const patients = await sql<{ initial: number; final: number }>`
    select count(*) filter (where created < ${start} and (deleted_at is null or deleted_at >= ${start})) as initial,
      count(*) filter (where deleted_at is null or deleted_at >= ${end}) as final
    from patients where business_id = ${businessId} and created < ${end}`.execute(db);
  const initialPatientCount = Number(patients.rows[0]?.initial ?? 0);
  return {
    alarmsByCode: sorted(alarmsByCode),
    initialPatientCount,
    patientDelta: Number(patients.rows[0]?.final ?? 0) - initialPatientCount,
  };
}

/** One business's figures for one London month, from the raw data (nothing stored is read). */
export async function computeMonth(
  db: Db,
  businessId: string,
  index: number,
  now: number,
): Promise<MonthlyBusinessStats> {
  const { start, end } = monthBounds(index);
  const { year, month } = fromMonthIndex(index);
  const window = { businessId, start, end };
  const orders = await orderFigures(db, window);
  const collections = await collectionFigures(db, window);
  const messages = await messageFigures(db, window);
  const estate = await estateFigures(db, window);
  return {
    businessId,
    year,
    month,
    notificationsSent: messages.notificationsSent,
    ordersAdded: orders.ordersAdded,
    ordersLoaded: orders.ordersLoaded,
    ordersCollected: orders.ordersCollected,
    ordersExpired: orders.ordersExpired,
    ordersCancelled: orders.ordersCancelled,
    ordersRemoved: orders.ordersRemoved,
    pinReveals: orders.pinReveals,
    ...collections,
    paidAmount: orders.paidAmount,
    exemptionsByCode: orders.exemptionsByCode,
    messagesByChannel: messages.messagesByChannel,
    machineDowntimeMinutes: await downtimeMinutes(db, businessId, start, end, now),
    alarmsByCode: estate.alarmsByCode,
    initialPatientCount: estate.initialPatientCount,
    patientDelta: estate.patientDelta,
  };
}
