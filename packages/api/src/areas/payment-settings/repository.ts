import type { Database } from '@medlocker/db';
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;
export type PaymentSettingsRow = Selectable<Database['payment_settings']>;

/** The provider column is not null: a business without a card provider stores this. */
export const NO_PROVIDER = 'none';

export const findPaymentSettings = (db: Db, businessId: string): Promise<PaymentSettingsRow | undefined> =>
  db.selectFrom('payment_settings').selectAll().where('business_id', '=', businessId).executeTakeFirst();

export async function upsertPaymentSettings(db: Db, row: Insertable<Database['payment_settings']>) {
  const { business_id: _id, created: _created, ...changes } = row;
  await db
    .insertInto('payment_settings')
    .values(row)
    .onConflict((oc) => oc.column('business_id').doUpdateSet(changes))
    .execute();
}

export async function deletePaymentSettingsRow(db: Db, businessId: string): Promise<boolean> {
  const result = await db.deleteFrom('payment_settings').where('business_id', '=', businessId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
