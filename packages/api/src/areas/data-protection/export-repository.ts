import { camelKey } from '../../rows/camel-row.ts';
import type { Db } from './policy-repository.ts';

/*
 * Everything held about one patient, for a subject access request (docs/decisions/retention.md):
 * rows as stored, less the secrets that are no information about the patient (PINs and their lookups,
 * code and token hashes) and the database's own bookkeeping, with camelCase keys.
 */

type Row = Record<string, unknown>;

/** Columns never put in the file: secrets, their hashes and bookkeeping, which say nothing about the patient. */
const LEFT_OUT = new Set([
  'pin',
  'pin_lookup',
  'token_hash',
  'code_hash',
  'spent_code_hash',
  'email_code_hash',
  'mobile_code_hash',
  'access_token_hash',
  // Bookkeeping, not data about the patient: a hash of the row as the last import sent it, and whether
  // the search index has caught up with the row.
  'import_digest',
  'search_pending',
]);

/** Columns that hold a time (ms since the epoch; bigint columns arrive as text from PostgreSQL). */
const TIME = /(^|_)(at|created|updated|collected|expires|last_seen|first_at|last_at)$/;

/** Rows without their secrets and bookkeeping, with camelCase keys and their times as numbers. */
const asExported = (rows: Row[]): Row[] =>
  rows.map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([key]) => !LEFT_OUT.has(key))
        .map(([key, value]) => [
          camelKey(key),
          TIME.test(key) && (typeof value === 'string' || typeof value === 'bigint') ? Number(value) : value,
        ]),
    ),
  );

export type PatientHoldings = {
  patient: Row;
  business: { id: string; name: string };
  orders: Row[];
  orderEvents: Row[];
  messages: Row[];
  payments: Row[];
  pinAttempts: Row[];
  mobiles: Row[];
  signUps: Row[];
  sessions: Row[];
  audit: Row[];
};

/** The holdings of one patient; null when there is no such patient. */
export async function readHoldings(db: Db, patientId: string): Promise<PatientHoldings | null> {
  const patient = await db.selectFrom('patients').selectAll().where('id', '=', patientId).executeTakeFirst();
  if (!patient) return null;
  const businessId = patient.business_id;
  const business = await db
    .selectFrom('businesses')
    .select(['id', 'name'])
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow();
  const orders = await db
    .selectFrom('orders')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('patient_id', '=', patientId)
    .orderBy('created')
    .execute();
  const orderIds = orders.map((o) => o.id);
  const ofOrders = orderIds.length > 0 ? orderIds : ['-'];
  /** The rows a table keeps about the patient's orders, oldest first. */
  const ofTheOrders = (table: 'order_events' | 'payment_attempts' | 'pin_attempts') =>
    db
      .selectFrom(table)
      .selectAll()
      .where('business_id', '=', businessId)
      .where('order_id', 'in', ofOrders)
      .orderBy('created')
      .execute();
  const [orderEvents, messages, payments, pinAttempts, mobiles, signUps, sessions, audit] = await Promise.all([
    ofTheOrders('order_events'),
    db
      .selectFrom('message_outbox')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('patient_id', '=', patientId),
          eb.and([eb('business_id', '=', businessId), eb('order_id', 'in', ofOrders)]),
        ]),
      )
      .orderBy('created')
      .execute(),
    ofTheOrders('payment_attempts'),
    ofTheOrders('pin_attempts'),
    db.selectFrom('patient_mobiles').selectAll().where('patient_id', '=', patientId).execute(),
    db.selectFrom('patient_sign_ups').selectAll().where('patient_id', '=', patientId).execute(),
    db.selectFrom('patient_sessions').selectAll().where('patient_id', '=', patientId).orderBy('created').execute(),
    db
      .selectFrom('audit_log')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('entity_type', '=', 'patient'), eb('entity_id', '=', patientId)]),
          eb.and([eb('entity_type', '=', 'order'), eb('entity_id', 'in', ofOrders)]),
        ]),
      )
      .orderBy('at')
      .execute(),
  ]);
  return {
    patient: asExported([patient])[0] ?? {},
    business,
    orders: asExported(orders),
    orderEvents: asExported(orderEvents),
    messages: asExported(messages),
    payments: asExported(payments),
    pinAttempts: asExported(pinAttempts),
    mobiles: asExported(mobiles),
    signUps: asExported(signUps),
    sessions: asExported(sessions),
    audit: asExported(audit),
  };
}
