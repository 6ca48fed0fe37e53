import type { Bag, BagToRemove } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import { newestFirst } from '../../lists/newest-first-repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

export function toBag(row: Selectable<Database['bags']>): Bag {
  return {
    id: row.id,
    businessId: row.business_id,
    barcode: row.barcode,
    reference: row.reference,
    location: row.location,
    machineId: row.machine_id,
    orderId: row.order_id,
    pin: row.pin,
    prescriptionCharge: row.prescription_charge,
    retailCharge: row.retail_charge,
    outOfOrderNotificationSent: row.out_of_order_notification_sent,
    created: row.created,
    updated: row.updated,
  };
}

/** Bags of a business (or a machine's contents) newest first, strictly before the cursor, `limit + 1`. */
export function listBagRows(
  db: Db,
  q: { businessId: string; machineId?: string; filter?: string; before?: string; limit: number },
) {
  let query = db.selectFrom('bags').selectAll().where('business_id', '=', q.businessId);
  if (q.machineId) query = query.where('machine_id', '=', q.machineId);
  if (q.filter) {
    // Anywhere in the barcode, the reference or the slot, in any case (staff type what the label says).
    query = query.where(contains('bags', q.filter));
  }
  return newestFirst(query, q);
}

/** The bags a machine holds that no order has claimed yet (loaded before their order existed). */
export const unmatchedBagsOfMachine = (db: Db, businessId: string, machineId: string) =>
  db
    .selectFrom('bags')
    .select(['id', 'barcode', 'location'])
    .where('business_id', '=', businessId)
    .where('machine_id', '=', machineId)
    .where('order_id', 'is', null)
    .orderBy('id')
    .execute();

/**
 * Bags in lockers whose order was cancelled, or is loaded past its expiry at `now`: of one machine, or
 * (no `machineId`) of the real machines in use of a business, or of the estate (`businessId` null).
 */
function bagsToRemove(db: Db, q: { businessId: string | null; machineId?: string; now: number }) {
  let query = db
    .selectFrom('bags as b')
    .innerJoin('orders as o', 'o.id', 'b.order_id')
    .innerJoin('machines as m', 'm.id', 'b.machine_id')
    .where('b.machine_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('o.status', '=', 'cancelled'),
        eb.and([eb('o.status', '=', 'loaded'), eb('o.expires_at', '<=', q.now)]),
      ]),
    );
  if (q.businessId !== null) query = query.where('b.business_id', '=', q.businessId);
  if (q.machineId !== undefined) return query.where('b.machine_id', '=', q.machineId);
  query = query.where('m.is_test', '=', false).where('m.archived_at', 'is', null);
  if (q.businessId === null) {
    query = query.innerJoin('businesses as biz', 'biz.id', 'b.business_id').where('biz.archived_at', 'is', null);
  }
  return query;
}

/** The first `limit` bags to remove, by machine name and slot. */
export async function listBagsToRemoveRows(
  db: Db,
  q: { businessId: string; machineId?: string; now: number; limit: number },
): Promise<BagToRemove[]> {
  const rows = await bagsToRemove(db, q)
    .select([
      'b.id',
      'b.barcode',
      'b.reference',
      'b.location',
      'b.machine_id',
      'm.name as machine_name',
      'o.id as order_id',
      'o.status',
      'o.cancelled_at',
      'o.expires_at',
    ])
    .orderBy('m.name')
    .orderBy('b.location')
    .orderBy('b.id')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({
    bagId: r.id,
    barcode: r.barcode,
    reference: r.reference,
    location: r.location,
    machineId: r.machine_id ?? '',
    machineName: r.machine_name,
    orderId: r.order_id,
    reason: r.status === 'cancelled' ? 'cancelled' : 'expired',
    since: Number((r.status === 'cancelled' ? r.cancelled_at : r.expires_at) ?? 0),
  }));
}

/** How many bags there are to remove, and of them how many for a cancelled order. */
export async function countBagsToRemove(
  db: Db,
  q: { businessId: string | null; machineId?: string; now: number },
): Promise<{ total: number; cancelled: number }> {
  const row = await bagsToRemove(db, q)
    .select([
      sql<string | number>`count(*)`.as('total'),
      sql<string | number>`count(*) filter (where o.status = 'cancelled')`.as('cancelled'),
    ])
    .executeTakeFirst();
  return { total: Number(row?.total ?? 0), cancelled: Number(row?.cancelled ?? 0) };
}
