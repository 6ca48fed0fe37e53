import type { MonthlyBusinessStats } from '@medlocker/core';
import { sql } from 'kysely';
import { computeMonth, monthBounds, monthOf } from './monthly-compute-repository.ts';
import { fromMonthIndex, monthIndex } from './monthly-repository.ts';
import type { Db } from './repository.ts';

/*
 * The WRITING of the monthly figures: the `stats.monthly` job and `reports/rebuildMonthlyStats`.
 * Each (business, month) row is recomputed whole from the raw data of its month (idempotent), so the
 * job and a rebuild are the same code with a different list of months. What each figure means is in
 * docs/decisions/reports.md, "Monthly figures".
 *
 * Incremental: triggers (migration 0028) append a row to monthly_stats_changes in the transaction of
 * every order event, patient message, machine event and patient change. The job reads the committed
 * change rows, recomputes the months they name, then deletes exactly the rows it read: a row it did not
 * see (its transaction committed later) stays for the next run, and a row it saw belongs to data that
 * was committed before the recompute read it. Each month is recomputed in a transaction that holds an
 * advisory lock on (business, month), so two api processes never write an older computation over a
 * newer one.
 */

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
