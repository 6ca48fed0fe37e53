import type { PaymentAttemptStatus } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Insertable, type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { type StoredOrder, toStoredOrder } from '../orders/index.ts';

export type Db = Kysely<Database> | Transaction<Database>;
type PaymentAttemptRow = Selectable<Database['payment_attempts']>;

/** A card payment started on Judopay's hosted page for an order, and how it ended. */
export type PaymentAttempt = {
  id: string;
  businessId: string;
  orderId: string;
  yourPaymentReference: string;
  yourConsumerReference: string;
  judoReference: string | null;
  postUrl: string | null;
  amount: number;
  currency: string;
  judoId: string;
  status: PaymentAttemptStatus;
  receiptId: string | null;
  reason: string | null;
  created: number;
  updated: number;
  completedAt: number | null;
};

const toPaymentAttempt = (row: PaymentAttemptRow): PaymentAttempt => ({
  id: row.id,
  businessId: row.business_id,
  orderId: row.order_id,
  yourPaymentReference: row.your_payment_reference,
  yourConsumerReference: row.your_consumer_reference,
  judoReference: row.judo_reference,
  postUrl: row.post_url,
  amount: Number(row.amount),
  currency: row.currency,
  judoId: row.judo_id,
  status: row.status,
  receiptId: row.receipt_id,
  reason: row.reason,
  created: Number(row.created),
  updated: Number(row.updated),
  completedAt: row.completed_at === null ? null : Number(row.completed_at),
});

export const insertPaymentAttempt = async (db: Db, row: Insertable<Database['payment_attempts']>) =>
  toPaymentAttempt(await db.insertInto('payment_attempts').values(row).returningAll().executeTakeFirstOrThrow());

export const updatePaymentAttempt = async (db: Db, id: string, set: Updateable<Database['payment_attempts']>) =>
  toPaymentAttempt(
    await db.updateTable('payment_attempts').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow(),
  );

/** Records how an attempt ended: its outcome, Judopay's receipt when there is one, and why it failed. */
export const completePaymentAttempt = (
  db: Db,
  id: string,
  end: { status: PaymentAttemptStatus; receiptId?: string; reason: string | null },
  now: number,
) =>
  updatePaymentAttempt(db, id, {
    status: end.status,
    ...(end.receiptId === undefined ? {} : { receipt_id: end.receiptId }),
    reason: end.reason,
    updated: now,
    completed_at: now,
  });

/**
 * The attempt with our payment reference. `lock` takes its row lock until the transaction ends: two
 * completions of one payment (the browser and the webhook at once) then run one after the other, and the
 * second finds the receipt already recorded.
 */
export async function findAttemptByReference(db: Db, reference: string, lock = false) {
  const query = db.selectFrom('payment_attempts').selectAll().where('your_payment_reference', '=', reference);
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
  return row && toPaymentAttempt(row);
}

export async function findAttemptByReceipt(db: Db, receiptId: string) {
  const row = await db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('receipt_id', '=', receiptId)
    .executeTakeFirst();
  return row && toPaymentAttempt(row);
}

/** An order's attempts, oldest first. */
export const listAttemptsOfOrder = async (db: Db, businessId: string, orderId: string) =>
  (
    await db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute()
  ).map(toPaymentAttempt);

/** The order, with its row lock held until the transaction ends (its payment is being settled). */
export const lockOrder = async (db: Db, id: string): Promise<StoredOrder | undefined> => {
  const row = await db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row && toStoredOrder(row);
};

/**
 * Settles an unpaid order's payment (paid, or an exemption declared), bumping its version; nothing when
 * it is no longer unpaid (undefined), so a payment is never recorded over another or over a declaration.
 */
export const settleOrderPayment = async (
  db: Db,
  id: string,
  set: Updateable<Database['orders']>,
): Promise<StoredOrder | undefined> => {
  const row = await db
    .updateTable('orders')
    .set({ ...set, sequence: sql`sequence + 1` })
    .where('id', '=', id)
    .where('payment_status', '=', 'unpaid')
    .returningAll()
    .executeTakeFirst();
  return row && toStoredOrder(row);
};

/** Marks an order's receipt sent, bumping its version (consoles reload it). */
export const markReceiptSent = async (db: Db, id: string, now: number): Promise<StoredOrder> =>
  toStoredOrder(
    await db
      .updateTable('orders')
      .set({ receipt_sent: true, updated: now, sequence: sql`sequence + 1` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );

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
