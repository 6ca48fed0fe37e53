import type { OrderEvent } from '@medlocker/core';
import { sql } from 'kysely';
import { type Db, type StoredOrder, toOrderEvent, toStoredOrder } from '../orders/index.ts';

/*
 * The evidence pack's SQL. Every query names the machine's business first: each table is
 * keyed (and would be distributed) by business_id.
 */

export type PackRange = { businessId: string; machineId: string; from: number; to: number };

export const findMachineWithBusiness = (db: Db, id: string) =>
  db
    .selectFrom('machines')
    .innerJoin('businesses', 'businesses.id', 'machines.business_id')
    .select(['machines.id', 'machines.name', 'machines.business_id as businessId', 'businesses.name as businessName'])
    .where('machines.id', '=', id)
    .executeTakeFirst();

/** Count, extremes and mean of the readings in the range, and how many fell outside the band. */
export async function readingStats(db: Db, r: PackRange, band: { min: number; max: number }) {
  const row = await db
    .selectFrom('temperature_readings')
    .select([
      sql<string>`count(*)`.as('count'),
      sql<number | null>`min(value)`.as('min'),
      sql<number | null>`max(value)`.as('max'),
      sql<number | null>`avg(value)`.as('average'),
      sql<string>`count(*) filter (where value < ${band.min} or value > ${band.max})`.as('outside'),
    ])
    .where('business_id', '=', r.businessId)
    .where('machine_id', '=', r.machineId)
    .where('created', '>=', r.from)
    .where('created', '<=', r.to)
    .executeTakeFirstOrThrow();
  const n = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    count: Number(row.count),
    min: n(row.min),
    max: n(row.max),
    average: row.average === null ? null : Math.round(Number(row.average) * 100) / 100,
    outsideCount: Number(row.outside),
  };
}

/** Readings of the range, oldest first: all of them, or (with `outside`) those outside the band. */
export const listReadings = (
  db: Db,
  r: PackRange,
  options: { outside?: { min: number; max: number }; limit?: number } = {},
) => {
  let q = db
    .selectFrom('temperature_readings')
    .select(['created', 'value'])
    .where('business_id', '=', r.businessId)
    .where('machine_id', '=', r.machineId)
    .where('created', '>=', r.from)
    .where('created', '<=', r.to);
  const band = options.outside;
  if (band) q = q.where((eb) => eb.or([eb('value', '<', band.min), eb('value', '>', band.max)]));
  if (options.limit !== undefined) q = q.limit(options.limit);
  return q.orderBy('created').execute();
};

/**
 * The machine's events of the range that are evidence: alarms (anything above info), excursions and
 * outages with their ends (in order, online again), oldest first. Routine progress (scans, boots) is not.
 */
export const listIncidentEvents = (db: Db, r: PackRange) =>
  db
    .selectFrom('machine_events')
    .select(['id', 'code', 'level', 'message', 'barcode', 'created'])
    .where('business_id', '=', r.businessId)
    .where('machine_id', '=', r.machineId)
    .where('created', '>=', r.from)
    .where('created', '<=', r.to)
    .where((eb) => eb.or([eb('level', '!=', 'info'), eb('code', 'in', ['MP_0001', 'MP_0002', 'MP_0007'])]))
    .orderBy('created')
    .orderBy('id')
    .execute();

/** Order events that put a bag into a machine (the order's first load, a move, a bag of a closed order). */
export const enteringCodes = ['ORDER_LOADED', 'ORDER_MOVED', 'LOCKER_BAG_LOADED'] as const;
/** Order events after which the bag is no longer in the machine (a move elsewhere is decided by its data). */
export const leavingCodes = [
  'ORDER_COLLECTED',
  'ORDER_REMOVED',
  'ORDER_MARKED_COLLECTED',
  'ORDER_MARKED_REMOVED',
  'LOCKER_BAG_COLLECTED',
  'LOCKER_BAG_REMOVED',
] as const;

/**
 * Orders of the business whose bag went into this machine before the range ended, and that may still
 * have been inside when it began: changed since (a collection, removal or move updates the order), or
 * never closed (new, loaded, or cancelled with its bag perhaps still in a slot). A superset: the
 * timelines decide (pack.ts). The entry events come from order_events_machine_entry_idx (0031); a
 * bag that waited for its order is in from `bagLoadedAt`, which can be before the event (and the range's
 * end) when the order was made after it.
 */
export const ordersEverInMachine = async (db: Db, r: PackRange): Promise<string[]> =>
  (
    await db
      .selectFrom('order_events')
      .innerJoin('orders', (join) =>
        join
          .onRef('orders.business_id', '=', 'order_events.business_id')
          .onRef('orders.id', '=', 'order_events.order_id'),
      )
      .select('order_events.order_id')
      .distinct()
      .where('order_events.business_id', '=', r.businessId)
      .where(sql<string>`order_events.data->>'machineId'`, '=', r.machineId)
      .where('order_events.code', 'in', [...enteringCodes])
      // In before the end: by the event, or by the bag that waited for its order (made after the end).
      .where((eb) =>
        eb.or([
          eb('order_events.created', '<=', r.to),
          eb(sql<number | null>`(order_events.data->>'bagLoadedAt')::bigint`, '<=', r.to),
        ]),
      )
      .where((eb) =>
        eb.or([eb('orders.updated', '>=', r.from), eb('orders.status', 'in', ['new', 'loaded', 'cancelled'])]),
      )
      .execute()
  ).map((row) => row.order_id);

/** Every event of these orders, oldest first. */
export async function listEventsOfOrders(db: Db, businessId: string, orderIds: string[]): Promise<OrderEvent[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .selectFrom('order_events')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('order_id', 'in', orderIds)
    .orderBy('created')
    .orderBy('id')
    .execute();
  return rows.map(toOrderEvent);
}

export const listOrdersByIds = async (db: Db, businessId: string, ids: string[]): Promise<StoredOrder[]> =>
  ids.length === 0
    ? []
    : (
        await db.selectFrom('orders').selectAll().where('business_id', '=', businessId).where('id', 'in', ids).execute()
      ).map(toStoredOrder);

/** The messages queued for these orders, oldest first. */
export const listMessagesOfOrders = (db: Db, businessId: string, orderIds: string[]) =>
  orderIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('message_outbox')
        .select([
          'id',
          'order_id as orderId',
          'template_key as templateKey',
          'channel',
          'recipient',
          'status',
          'body',
          'created',
          'sent_at as sentAt',
        ])
        .where('business_id', '=', businessId)
        .where('order_id', 'in', orderIds)
        .orderBy('created')
        .orderBy('id')
        .execute();

/**
 * Staff changes to the machine itself (out of order, archive, edits, an alarm acknowledged or resolved) from
 * `from` on: reads are not actions, and what the locker or a job did (an alarm raised, escalated) is not a
 * person acting (the pack's alarms show it).
 */
export const listMachineAudit = (db: Db, r: PackRange) =>
  db
    .selectFrom('audit_log')
    .select(['id', 'at', 'actor_display as actorDisplay', 'action'])
    .where('business_id', '=', r.businessId)
    .where('entity_type', '=', 'machine')
    .where('entity_id', '=', r.machineId)
    .where('at', '>=', r.from)
    .where('actor_user_id', 'is not', null)
    .where('action', 'not like', '%.read')
    .orderBy('at')
    .execute();

/** The rows to hold or release, locked in id order (two bulk holds never wait on each other in a circle). */
export const lockOrders = async (db: Db, ids: string[]): Promise<StoredOrder[]> =>
  (await db.selectFrom('orders').selectAll().where('id', 'in', ids).orderBy('id').forUpdate().execute()).map(
    toStoredOrder,
  );

export const setPinHold = async (
  db: Db,
  id: string,
  hold: { at: number; by: string; display: string; reason: string } | null,
  now: number,
  updatedBy: string,
): Promise<StoredOrder> =>
  toStoredOrder(
    await db
      .updateTable('orders')
      .set({
        pin_held_at: hold?.at ?? null,
        pin_held_by: hold?.by ?? null,
        pin_held_by_display: hold?.display ?? null,
        pin_hold_reason: hold?.reason ?? null,
        updated: now,
        updated_by: updatedBy,
        sequence: sql`sequence + 1`,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
