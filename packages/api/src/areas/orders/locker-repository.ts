import type { Database } from '@medlocker/db';
import { type Insertable, sql } from 'kysely';
import { type Db, type OrderRow, toStoredOrder } from './mapping-repository.ts';

/**
 * The live order at a machine whose PIN has one of these lookups (its lookup under each key of the ring:
 * during a key rotation, a PIN not yet keyed again is under an older one; the unique index holds at most
 * one order a lookup), with the
 * bag of it the machine holds now (the slot to open), if any: one round trip for a VerifyPin. The order
 * is read `for share`: a PIN hold being committed (evidence/service.ts locks the row for update) is
 * waited for and then seen, so the locker never opens a slot for a PIN staff have just held.
 */
export async function liveOrderByPin(db: Db, machineId: string, lookups: readonly string[]) {
  const row = await db
    .selectFrom('orders')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('bags')
          .select(['bags.id as bag_id', 'bags.barcode as bag_barcode', 'bags.location as bag_location'])
          .whereRef('bags.order_id', '=', 'orders.id')
          .where('bags.machine_id', '=', machineId)
          .orderBy('bags.id', 'desc')
          .limit(1)
          .as('bag'),
      (join) => join.onTrue(),
    )
    .selectAll('orders')
    .select(['bag.bag_id', 'bag.bag_barcode', 'bag.bag_location'])
    .where('orders.machine_id', '=', machineId)
    .where('orders.pin_lookup', 'in', lookups)
    .where('orders.status', 'in', ['new', 'loaded'])
    .forShare('orders')
    .executeTakeFirst();
  if (!row) return undefined;
  const { bag_id, bag_barcode, bag_location, ...order } = row;
  const bag = bag_id === null ? null : { id: bag_id, barcode: bag_barcode ?? '', location: bag_location };
  return { order: toStoredOrder(order as OrderRow), bag };
}

/** Whether another live order at the machine already has this PIN. */
export const pinTakenAtMachine = async (db: Db, machineId: string, lookup: string, exceptOrderId: string) =>
  (await db
    .selectFrom('orders')
    .select('id')
    .where('machine_id', '=', machineId)
    .where('pin_lookup', '=', lookup)
    .where('status', 'in', ['new', 'loaded'])
    .where('id', '!=', exceptOrderId)
    .executeTakeFirst()) !== undefined;

/** A bag in a machine that waits for an order with its barcode (loaded before the order existed). */
export const waitingBag = (db: Db, businessId: string, barcode: string) =>
  db
    .selectFrom('bags')
    .select(['id', 'machine_id as machineId', 'location', 'created'])
    .where('business_id', '=', businessId)
    .where('barcode', '=', barcode)
    .where('order_id', 'is', null)
    .where('machine_id', 'is not', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();

/** Matches a bag to its order; the bag carries the order's reference from then on. */
export const setBagOrder = (db: Db, bagId: string, orderId: string, now: number) =>
  db
    .updateTable('bags')
    .set({
      order_id: orderId,
      reference: sql<string>`(select reference from orders where id = ${orderId})`,
      updated: now,
    })
    .where('id', '=', bagId)
    .execute();

export type PinOutcome = 'ok' | 'wrong' | 'expired' | 'paymentRequired' | 'lockedOut' | 'held';

/**
 * Turns `synchronous_commit` off for the statement's own transaction (as the readings batch does): the
 * commit is made and seen by every other session at once, so the wrong-PIN count stays exact; only its
 * flush to disk is not waited on (a database crash may lose the last ~0.6 s of PIN tries). The disk's
 * flush was two thirds of a VerifyPin and its stalls its p99 (bench/hub/verify-pin.ts, docs/decisions/orders.md).
 */
const fastCommit = sql<string>`set_config('synchronous_commit', 'off', true)`.as('fast_commit');

/** Records a PIN tried at a machine (first as wrong: the try counts before it is checked). */
export const insertPinAttempt = (db: Db, row: Insertable<Database['pin_attempts']>) =>
  db.insertInto('pin_attempts').values(row).returning(fastCommit).execute();

export const setPinAttemptOutcome = (db: Db, id: string, outcome: PinOutcome, orderId: string | null) =>
  db
    .updateTable('pin_attempts')
    .set({ outcome, order_id: orderId })
    .where('id', '=', id)
    .returning(fastCommit)
    .execute();

/**
 * A PIN that named an order: its try's outcome and the order's event, in one statement (one round trip,
 * atomic without BEGIN/COMMIT; both writes run whether or not the select reads them).
 */
export const recordPinOutcome = (
  db: Db,
  attempt: { id: string; outcome: PinOutcome; orderId: string },
  event: Insertable<Database['order_events']>,
) =>
  db
    .with('attempt', (qb) =>
      qb
        .updateTable('pin_attempts')
        .set({ outcome: attempt.outcome, order_id: attempt.orderId })
        .where('id', '=', attempt.id)
        .returning('id'),
    )
    .with('event', (qb) => qb.insertInto('order_events').values(event).returning('id'))
    .selectNoFrom([fastCommit])
    .execute();

/**
 * The times of the wrong PINs at a machine after `since` that came before the try `attemptId` (by time,
 * then id), oldest first. Tries not yet checked are still 'wrong'; lock-outs are not counted again.
 */
export async function wrongPinsBefore(db: Db, machineId: string, attemptId: string, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('pin_attempts')
    .select(['id', 'created'])
    .where('machine_id', '=', machineId)
    .where('created', '>', since)
    .where('outcome', '=', 'wrong')
    .orderBy('created')
    .orderBy('id')
    .execute();
  const own = rows.findIndex((r) => r.id === attemptId);
  return (own === -1 ? rows : rows.slice(0, own)).map((r) => Number(r.created));
}
