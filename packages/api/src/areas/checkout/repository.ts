import type { Database } from '@medlocker/db';
import { type Insertable, type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;
export type PaymentAttemptRow = Selectable<Database['payment_attempts']>;

export const insertPaymentAttempt = (db: Db, row: Insertable<Database['payment_attempts']>) =>
  db.insertInto('payment_attempts').values(row).returningAll().executeTakeFirstOrThrow();

export const updatePaymentAttempt = (db: Db, id: string, set: Updateable<Database['payment_attempts']>) =>
  db.updateTable('payment_attempts').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/**
 * The attempt with our payment reference. `lock` takes its row lock until the transaction ends: two
 * completions of one payment (the browser and the webhook at once) then run one after the other, and the
 * second finds the receipt already recorded.
 */
export function findAttemptByReference(db: Db, reference: string, lock = false) {
  const query = db.selectFrom('payment_attempts').selectAll().where('your_payment_reference', '=', reference);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export const findAttemptByReceipt = (db: Db, receiptId: string) =>
  db.selectFrom('payment_attempts').selectAll().where('receipt_id', '=', receiptId).executeTakeFirst();

/** An order's attempts, oldest first. */
export const listAttemptsOfOrder = (db: Db, businessId: string, orderId: string) =>
  db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();

/** The order, with its row lock held until the transaction ends (its payment is being settled). */
export const lockOrder = (db: Db, id: string) =>
  db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

/**
 * Settles an unpaid order's payment (paid, or an exemption declared), bumping its version; nothing when
 * it is no longer unpaid (undefined), so a payment is never recorded over another or over a declaration.
 */
export const settleOrderPayment = (db: Db, id: string, set: Updateable<Database['orders']>) =>
  db
    .updateTable('orders')
    .set({ ...set, sequence: sql`sequence + 1` })
    .where('id', '=', id)
    .where('payment_status', '=', 'unpaid')
    .returningAll()
    .executeTakeFirst();

/** Marks an order's receipt sent, bumping its version (consoles reload it). */
export const markReceiptSent = (db: Db, id: string, now: number) =>
  db
    .updateTable('orders')
    .set({ receipt_sent: true, updated: now, sequence: sql`sequence + 1` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

/** How many receipts an order has had sent, and when the last one was (its RECEIPT_SENT events). */
export async function receiptsSentOf(db: Db, businessId: string, orderId: string) {
  const row = await db
    .selectFrom('order_events')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.max('created').as('last')])
    .where('business_id', '=', businessId)
    .where('order_id', '=', orderId)
    .where('code', '=', 'RECEIPT_SENT')
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), last: row.last === null ? null : Number(row.last) };
}
