import { londonDayStart, type MonthlyBusinessStats, toIsoDate } from '@medlocker/core';
import { sql } from 'kysely';
import { fromMonthIndex, monthIndex } from './monthly-repository.ts';
import type { Db } from './repository.ts';

/*
 * The WRITING of the monthly figures (issue 21): the `stats.monthly` job and `reports/rebuildMonthlyStats`.
 * Each (business, month) row is recomputed whole from the raw data of its month (idempotent), so the
 * job and a rebuild are the same code with a different list of months. What each figure means is in
 * docs/decisions/reports.md, "Monthly figures (issue 21)".
 *
 * Incremental: triggers (migration 0028) append a row to monthly_stats_changes in the transaction of
 * every order event, patient message, machine event and patient change. The job reads the committed
 * change rows, recomputes the months they name, then deletes exactly the rows it read: a row it did not
 * see (its transaction committed later) stays for the next run, and a row it saw belongs to data that
 * was committed before the recompute read it. Each month is recomputed in a transaction that holds an
 * advisory lock on (business, month), so two api processes never write an older computation over a
 * newer one.
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

/** One business's figures for one London month, from the raw data (nothing stored is read). */
export async function computeMonth(
  db: Db,
  businessId: string,
  index: number,
  now: number,
): Promise<MonthlyBusinessStats> {
  const { start, end } = monthBounds(index);
  const { year, month } = fromMonthIndex(index);
  const counts = {
    ordersAdded: 0,
    ordersLoaded: 0,
    ordersCollected: 0,
    ordersExpired: 0,
    ordersCancelled: 0,
    ordersRemoved: 0,
    pinReveals: 0,
  };
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
  // Collections: minutes from the order's first load, and whether before its expiry.
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
    businessId,
    year,
    month,
    notificationsSent,
    ...counts,
    collectedWithinWindow,
    totalPickupMinutes: pickups.reduce((a, b) => a + b, 0),
    medianPickupMinutes: medianMinutes(pickups),
    paidAmount,
    exemptionsByCode: sorted(exemptionsByCode),
    messagesByChannel: sorted(messagesByChannel),
    machineDowntimeMinutes: await downtimeMinutes(db, businessId, start, end, now),
    alarmsByCode: sorted(alarmsByCode),
    initialPatientCount,
    patientDelta: Number(patients.rows[0]?.final ?? 0) - initialPatientCount,
  };
}

/**
 * Upserts a computed row; a row whose figures are the same is left alone (its `computed_at` too), so a
 * second rebuild writes nothing. True when the row was written.
 */
async function storeMonth(db: Db, row: MonthlyBusinessStats, now: number): Promise<boolean> {
  const values = {
    business_id: row.businessId,
    year: row.year,
    month: row.month,
    notifications_sent: row.notificationsSent,
    orders_added: row.ordersAdded,
    orders_loaded: row.ordersLoaded,
    orders_collected: row.ordersCollected,
    orders_expired: row.ordersExpired,
    orders_cancelled: row.ordersCancelled,
    orders_removed: row.ordersRemoved,
    collected_within_window: row.collectedWithinWindow,
    total_pickup_minutes: row.totalPickupMinutes,
    median_pickup_minutes: row.medianPickupMinutes,
    paid_amount: row.paidAmount,
    exemptions_by_code: JSON.stringify(row.exemptionsByCode),
    pin_reveals: row.pinReveals,
    messages_by_channel: JSON.stringify(row.messagesByChannel),
    machine_downtime_minutes: row.machineDowntimeMinutes,
    alarms_by_code: JSON.stringify(row.alarmsByCode),
    initial_patient_count: row.initialPatientCount,
    patient_delta: row.patientDelta,
    computed_at: now,
    updated: now,
  };
  const figures = Object.keys(values).filter(
    (k) => !['business_id', 'year', 'month', 'computed_at', 'updated'].includes(k),
  ) as (keyof typeof values)[];
  const written = await db
    .insertInto('monthly_business_stats')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'year', 'month'])
        .doUpdateSet((eb) =>
          Object.fromEntries(
            [...figures, 'computed_at', 'updated'].map((k) => [k, eb.ref(`excluded.${k}` as 'excluded.updated')]),
          ),
        )
        .where((eb) =>
          eb.or(
            figures.map((k) =>
              eb(sql.ref(`monthly_business_stats.${k}`), 'is distinct from', sql.ref(`excluded.${k}`)),
            ),
          ),
        ),
    )
    .returning('business_id')
    .executeTakeFirst();
  return written !== undefined;
}

/**
 * Recomputes one (business, month) and stores it, under an advisory lock on the pair for the
 * transaction: of two processes recomputing it, the second reads after the first committed.
 */
export async function recomputeMonth(db: Db, businessId: string, index: number, now: number): Promise<boolean> {
  const run = async (tx: Db) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`monthly:${businessId}`}), ${index}::int)`.execute(tx);
    return storeMonth(tx, await computeMonth(tx, businessId, index, now), now);
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

export type MonthPair = { businessId: string; month: number };

/**
 * Whether the `stats.monthly` job still has changes to fold into this business's month: a change row
 * whose span touches it (machine and patient changes reach every later month). The monthly email
 * recomputes the month first when there are.
 */
export async function hasPendingChanges(db: Db, businessId: string, index: number): Promise<boolean> {
  const { start, end } = monthBounds(index);
  const row = await db
    .selectFrom('monthly_stats_changes')
    .select('id')
    .where('business_id', '=', businessId)
    .where('first_at', '<', end)
    .where((eb) => eb.or([eb('last_at', '>=', start), eb('source', 'in', ['machine', 'patient'])]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Months recomputed at once: each is a handful of short round trips, so a few in flight overlap their
 * waits (PostgreSQL); the rest of the pool stays for requests. PGlite runs them one after another.
 */
const CONCURRENCY = 3;

/** Told of a (business, month) whose recompute failed; the others carry on. */
export type OnMonthError = (pair: MonthPair, error: unknown) => void;

/** A failed month as log fields. */
export const monthError = (pair: MonthPair, error: unknown) => {
  const { year, month } = fromMonthIndex(pair.month);
  return { businessId: pair.businessId, year, month, error: error instanceof Error ? error.message : String(error) };
};

/**
 * Recomputes the pairs, CONCURRENCY at a time; how many rows changed and the businesses of which a
 * month failed. One business's failure (data a query cannot read) never stops the others' months.
 */
async function recomputeAll(
  db: Db,
  pairs: MonthPair[],
  now: number,
  onError?: OnMonthError,
): Promise<{ changed: number; failed: Set<string> }> {
  let next = 0;
  let changed = 0;
  const failed = new Set<string>();
  const worker = async () => {
    while (next < pairs.length) {
      const p = pairs[next++] as MonthPair;
      try {
        if (await recomputeMonth(db, p.businessId, p.month, now)) changed++;
      } catch (error) {
        failed.add(p.businessId);
        onError?.(p, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pairs.length) }, worker));
  return { changed, failed };
}

const pairKey = (p: MonthPair) => `${p.businessId}:${p.month}`;

/** Of these (business, month) pairs, those with a stored row computed before the month ended. */
async function computedBeforeTheirEnd(db: Db, pairs: MonthPair[]): Promise<MonthPair[]> {
  const wanted = new Map(pairs.map((p) => [pairKey(p), p]));
  if (wanted.size === 0) return [];
  const months = [...new Set(pairs.map((p) => p.month))];
  const rows = await db
    .selectFrom('monthly_business_stats')
    .select(['business_id', 'year', 'month', 'computed_at'])
    .where('business_id', 'in', [...new Set(pairs.map((p) => p.businessId))])
    .where(sql<boolean>`year * 12 + month - 1 in (${sql.join(months)})`)
    .execute();
  return rows
    .map((r) => ({
      pair: { businessId: r.business_id, month: monthIndex(r.year, r.month) },
      at: Number(r.computed_at),
    }))
    .filter(({ pair, at }) => wanted.has(pairKey(pair)) && at < monthBounds(pair.month).end)
    .map(({ pair }) => pair);
}

/** Change rows read at a time; a run reads batches until one is short, at most MAX_BATCHES (the rest wait for the next run). */
export const CHANGE_BATCH = 5_000;
const MAX_BATCHES = 20;

/**
 * The `stats.monthly` job: recomputes the months touched since the last run, and the current (and
 * previous) month of businesses with a machine down now (downtime grows without events).
 * Returns how many months were recomputed and how many rows changed.
 */
export async function runMonthlyStats(
  db: Db,
  now: number,
  options: { batch?: number; onError?: OnMonthError } = {},
): Promise<{ months: number; changed: number }> {
  const current = monthOf(now);
  const limit = options.batch ?? CHANGE_BATCH;
  let months = 0;
  let changed = 0;
  // Businesses a month of which failed this run: their change rows stay (the next run tries again)
  // and this run's later batches pass over them, so they never hold up the others.
  const failed = new Set<string>();
  // Batch after batch of change rows until one comes back short (at most MAX_BATCHES a run).
  for (let round = 0; round < MAX_BATCHES; round++) {
    let query = db
      .selectFrom('monthly_stats_changes')
      .select(['id', 'business_id', 'source', 'first_at', 'last_at'])
      .limit(limit);
    if (failed.size > 0) query = query.where('business_id', 'not in', [...failed]);
    const changes = await query.execute();
    const pairs = new Map<string, MonthPair>();
    const add = (businessId: string, from: number, to: number) => {
      // Times in the future (a wrong clock) still count their own month; never more than ten years back.
      for (let m = Math.max(from, current - 12 * 10); m <= to; m++)
        pairs.set(pairKey({ businessId, month: m }), { businessId, month: m });
    };
    const machineBefore: MonthPair[] = [];
    for (const c of changes) {
      const first = monthOf(Number(c.first_at));
      const last = monthOf(Number(c.last_at));
      // Machine state and patient counts carry into every later month.
      const carries = c.source === 'machine' || c.source === 'patient';
      add(c.business_id, first, carries ? Math.max(last, current) : last);
      if (c.source === 'machine') machineBefore.push({ businessId: c.business_id, month: first - 1 });
    }
    // A machine back up early in a month ends an outage that ran to the end of the month before, whose
    // row was last computed while it was still down (before that month ended): that month too.
    for (const p of await computedBeforeTheirEnd(db, machineBefore)) add(p.businessId, p.month, p.month);
    if (round === 0) {
      const down = await db
        .selectFrom('machines')
        .select('business_id')
        .distinct()
        .where('archived_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('out_of_order_at', 'is not', null),
            eb.and([eb('online', '=', false), eb('last_seen', 'is not', null)]),
          ]),
        )
        .execute();
      for (const d of down) add(d.business_id, current - 1, current);
    }
    const done = await recomputeAll(db, [...pairs.values()], now, options.onError);
    changed += done.changed;
    months += pairs.size;
    for (const b of done.failed) failed.add(b);
    const ids = changes.filter((c) => !failed.has(c.business_id)).map((c) => c.id);
    for (let i = 0; i < ids.length; i += 1000) {
      await db
        .deleteFrom('monthly_stats_changes')
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
    }
    if (changes.length < limit) break;
  }
  return { months, changed };
}

/** The earliest month with data of a business, or null when it has none. */
async function firstMonthOf(db: Db, businessId: string): Promise<number | null> {
  const row = await sql<{ at: number | null }>`
    select least(
      (select min(created) from order_events where business_id = ${businessId}),
      (select min(created) from patients where business_id = ${businessId}),
      (select min(created) from machine_events where business_id = ${businessId}),
      (select min(created) from message_outbox where business_id = ${businessId} and patient_id is not null)
    ) as at`.execute(db);
  const at = row.rows[0]?.at;
  return at === null || at === undefined ? null : monthOf(Number(at));
}

/**
 * Recomputes every month of these businesses from `from` (a month index; default the business's first
 * month with data) to the current month. Running it twice changes nothing the second time.
 */
export async function rebuildMonthlyStats(
  db: Db,
  businessIds: readonly string[],
  from: number | undefined,
  now: number,
  onError?: OnMonthError,
): Promise<{ months: number; changed: number }> {
  const current = monthOf(now);
  let months = 0;
  let changed = 0;
  const pairs: MonthPair[] = [];
  for (const businessId of businessIds) {
    const first = from ?? (await firstMonthOf(db, businessId));
    if (first === null) continue;
    for (let m = first; m <= current; m++) pairs.push({ businessId, month: m });
  }
  months += pairs.length;
  changed += (await recomputeAll(db, pairs, now, onError)).changed;
  return { months, changed };
}
