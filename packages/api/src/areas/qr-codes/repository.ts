import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

export type Db = Kysely<Database> | Transaction<Database>;

/** A business's QR signing key as stored: sealed, with when and by whom it was made. */
export const findSigningKey = async (db: Db, businessId: string) => {
  const row = await db
    .selectFrom('qr_signing_keys')
    .select(['key_sealed', 'created', 'created_by'])
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return row && { sealed: row.key_sealed, created: Number(row.created), createdBy: row.created_by };
};

/** Stores a business's new key in place of the one it had. */
export const putSigningKey = (db: Db, businessId: string, sealed: string, created: number, createdBy: string) =>
  db
    .insertInto('qr_signing_keys')
    .values({ business_id: businessId, key_sealed: sealed, created, created_by: createdBy })
    .onConflict((oc) => oc.column('business_id').doUpdateSet({ key_sealed: sealed, created, created_by: createdBy }))
    .execute();
