import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import { type StoredOrder, toStoredOrder } from '../orders/index.ts';

/** The patient page's reads of orders (patient-service.ts); staff reads are in areas/orders. */

export type Db = Kysely<Database> | Transaction<Database>;

/** A patient's orders, newest first. */
export const findOrdersOfPatient = async (
  db: Db,
  businessId: string,
  patientId: string,
  limit: number,
): Promise<StoredOrder[]> =>
  (
    await db
      .selectFrom('orders')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('patient_id', '=', patientId)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
  ).map(toStoredOrder);

/** The business an order belongs to: its name and address, for the patient page. */
export const findPharmacy = (db: Db, businessId: string) =>
  db
    .selectFrom('businesses')
    .select([
      'name',
      'email',
      'address_line1 as line1',
      'address_line2 as line2',
      'address_line3 as line3',
      'post_town as postTown',
      'postcode',
    ])
    .where('id', '=', businessId)
    .executeTakeFirst();

/**
 * Where an order's last receipt went, masked as sent (`p•••@example.com`): the data of its last
 * `RECEIPT_SENT` event; null when none was sent or the event predates keeping it.
 */
export async function lastReceiptSentTo(db: Db, businessId: string, orderId: string): Promise<string | null> {
  const row = await db
    .selectFrom('order_events')
    .select('data')
    .where('business_id', '=', businessId)
    .where('order_id', '=', orderId)
    .where('code', '=', 'RECEIPT_SENT')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const data = (typeof row?.data === 'string' ? JSON.parse(row.data) : row?.data) as { sentTo?: unknown } | null;
  return typeof data?.sentTo === 'string' ? data.sentTo : null;
}

/** Keeps the patient's language for their page and next messages. */
export async function writePatientLanguage(db: Db, patientId: string, language: 'en' | 'cy'): Promise<void> {
  await db.updateTable('patients').set({ language }).where('id', '=', patientId).execute();
}
