import type { Bag } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';

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
  if (q.before) query = query.where('id', '<', q.before);
  return query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
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
