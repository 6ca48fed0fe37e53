import type { Database } from '@medlocker/db';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql, type Transaction } from 'kysely';

/* The queries behind a locker's bag events (locker-service.ts): bags loaded into and leaving a machine. */

type Db = Kysely<Database> | Transaction<Database>;

/** The reference of the order a bag is matched to, for the bag to carry (null: no order). */
export const referenceOf = (orderId: string | null) =>
  orderId === null ? null : sql<string | null>`(select reference from orders where id = ${orderId})`;

/** The newest bag of this barcode in the business where `place` says (by its machine). */
const newestBag = (
  db: Db,
  q: { businessId: string; barcode: string },
  place: (eb: ExpressionBuilder<Database, 'bags'>) => Expression<SqlBool>,
) =>
  db
    .selectFrom('bags')
    .select(['id', 'order_id as orderId'])
    .where('business_id', '=', q.businessId)
    .where('barcode', '=', q.barcode)
    .where(place)
    .orderBy('id', 'desc')
    .executeTakeFirst();

/** The newest bag of this barcode in the business that is in no machine or already in this one. */
export const loadableBag = (db: Db, q: { businessId: string; machineId: string; barcode: string }) =>
  newestBag(db, q, (eb) => eb.or([eb('machine_id', 'is', null), eb('machine_id', '=', q.machineId)]));

/** The newest bag of this barcode in this machine. */
export const bagInMachine = (db: Db, q: { businessId: string; machineId: string; barcode: string }) =>
  newestBag(db, q, (eb) => eb('machine_id', '=', q.machineId));

/** Puts a bag in a slot of a machine (or, with nulls, takes it out), matched to an order. */
export async function placeBag(
  db: Db,
  bagId: string,
  place: { machineId: string | null; location: string | null; orderId?: string | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('bags')
    .set({
      machine_id: place.machineId,
      location: place.location,
      ...(place.orderId !== undefined ? { order_id: place.orderId, reference: referenceOf(place.orderId) } : {}),
      updated: now,
    })
    .where('id', '=', bagId)
    .execute();
}

export async function insertLoadedBag(
  db: Db,
  b: { id: string; businessId: string; machineId: string; barcode: string; location: string; orderId: string | null },
  now: number,
): Promise<void> {
  await db
    .insertInto('bags')
    .values({
      id: b.id,
      business_id: b.businessId,
      barcode: b.barcode,
      reference: referenceOf(b.orderId),
      location: b.location,
      machine_id: b.machineId,
      order_id: b.orderId,
      pin: null,
      created: now,
      updated: now,
    })
    .execute();
}
