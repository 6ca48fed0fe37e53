import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';

/** The patient page's reads of orders (patient-service.ts); staff reads are in areas/orders. */

type Db = Kysely<Database> | Transaction<Database>;

/** A patient's orders, newest first. */
export const listPatientOrderRows = (db: Db, businessId: string, patientId: string, limit: number) =>
  db
    .selectFrom('orders')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('patient_id', '=', patientId)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

/** The business an order belongs to: its name and address, for the patient page. */
export const findPharmacy = (db: Db, businessId: string) =>
  db
    .selectFrom('businesses')
    .select(['name', 'address_line1', 'address_line2', 'address_line3', 'post_town', 'postcode'])
    .where('id', '=', businessId)
    .executeTakeFirst();
