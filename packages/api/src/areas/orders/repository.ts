import type { Locale, OrderEvent, OrderStatus } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Insertable, sql, type Updateable } from 'kysely';
import type { OrderDelivery } from '../../delivery/messages/port.ts';
import {
  type Db,
  type NewOrderRow,
  type OrderRow,
  type StoredOrder,
  toOrderEvent,
  toStoredOrder,
} from './mapping-repository.ts';

/** A row read, if any, as a stored order. */
const stored = (row: OrderRow | undefined): StoredOrder | undefined => row && toStoredOrder(row);

/** What creating an order needs to know of its business. */
export const findBusinessForOrder = (db: Db, id: string) =>
  db
    .selectFrom('businesses')
    .select(['id', 'name', 'postcode', 'archived_at as archivedAt'])
    .where('id', '=', id)
    .executeTakeFirst();

/** The patient an order is made for, as creating it and its messages need them. */
export async function findPatientForOrder(db: Db, id: string) {
  const row = await db
    .selectFrom('patients')
    .select(['id', 'business_id', 'full_name', 'display_id', 'email', 'mobile_number', 'deleted_at', 'language'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      /** The language the patient chose on the patient page (null: the business's default). */
      language: row.language === 'en' || row.language === 'cy' ? row.language : null,
      businessId: row.business_id,
      fullName: row.full_name,
      displayId: row.display_id,
      email: row.email,
      mobileNumber: row.mobile_number,
      deletedAt: row.deleted_at,
    }
  );
}

/** Where a patient can be reached (a receipt goes to their email, else their mobile). */
export async function findPatientContact(
  db: Db,
  id: string,
): Promise<{ email: string | null; mobileNumber: string | null; language: Locale | null } | undefined> {
  const row = await db
    .selectFrom('patients')
    .select(['email', 'mobile_number', 'language'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      email: row.email,
      mobileNumber: row.mobile_number,
      language: row.language === 'en' || row.language === 'cy' ? row.language : null,
    }
  );
}

/** The business a patient belongs to (their orders are listed within it). */
export async function findPatientBusiness(db: Db, id: string): Promise<{ id: string; businessId: string } | undefined> {
  const row = await db.selectFrom('patients').select(['id', 'business_id']).where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, businessId: row.business_id };
}

export const findMachineForOrder = (db: Db, id: string) =>
  db
    .selectFrom('machines')
    .select([
      'id',
      'business_id as businessId',
      'name',
      'archived_at as archivedAt',
      'payments_enabled as paymentsEnabled',
    ])
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * The next value of a counter (an order reference per business, a sequence per machine), starting at 1.
 * The upsert takes the counter's row lock for its statement, so concurrent callers get distinct values
 * on PostgreSQL and PGlite alike. Call it outside a longer transaction (its lock lasts as long as that
 * transaction); a create that fails afterwards leaves a gap, never a repeat.
 */
export async function nextCounter(db: Db, scope: string): Promise<number> {
  const row = await db
    .insertInto('order_counters')
    .values({ scope, value: 1 })
    .onConflict((oc) => oc.column('scope').doUpdateSet({ value: sql`order_counters.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/**
 * Inserts an order unless a unique rule refuses it (a live order with its barcode, or with its PIN at
 * its machine): then nothing is written, the transaction stays usable, and the caller finds out which.
 */
export const insertOrderRow = async (db: Db, row: NewOrderRow): Promise<StoredOrder | undefined> =>
  stored(
    await db
      .insertInto('orders')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst(),
  );

/**
 * The business's live (new or loaded) order with this barcode, if any: a barcode is unique among them
 * (migration 0017's partial unique index, orders_live_barcode_key). Creating an order, a QR code's order and a locker's bag all ask.
 */
export const liveOrderWithBarcode = (db: Db, businessId: string, barcode: string) =>
  db
    .selectFrom('orders')
    .select(['id', 'reference', 'patient_id as patientId'])
    .where('business_id', '=', businessId)
    .where('barcode', '=', barcode)
    .where('status', 'in', ['new', 'loaded'])
    .executeTakeFirst();

export const findOrder = async (db: Db, id: string): Promise<StoredOrder | undefined> =>
  stored(await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst());

/**
 * Moves an order only if it is still as the caller read it (same state, same version): of two staff
 * acting at once, one update matches and the other finds nothing and is refused. Bumps the version.
 */
export const moveOrderRow = async (
  db: Db,
  expected: { id: string; status: OrderStatus; sequence: number },
  set: Updateable<Database['orders']>,
): Promise<StoredOrder | undefined> =>
  stored(
    await db
      .updateTable('orders')
      .set({ ...set, sequence: sql`sequence + 1` })
      .where('id', '=', expected.id)
      .where('status', '=', expected.status)
      .where('sequence', '=', expected.sequence)
      .returningAll()
      .executeTakeFirst(),
  );

export const insertOrderEventRows = async (db: Db, rows: Insertable<Database['order_events']>[]) => {
  if (rows.length > 0) await db.insertInto('order_events').values(rows).execute();
};

/** An order's events, oldest first, after the cursor (created, id). */
export const listOrderEvents = async (
  db: Db,
  q: { businessId: string; orderId: string; after?: [number, string]; limit: number },
): Promise<OrderEvent[]> => {
  let query = db
    .selectFrom('order_events')
    .selectAll()
    .where('business_id', '=', q.businessId)
    .where('order_id', '=', q.orderId);
  if (q.after) {
    const [created, id] = q.after;
    query = query.where((eb) =>
      eb.or([eb('created', '>', created), eb.and([eb('created', '=', created), eb('id', '>', id)])]),
    );
  }
  return (await query.orderBy('created').orderBy('id').limit(q.limit).execute()).map(toOrderEvent);
};

/**
 * Orders whose barcode or reference is `text` (any case), newest first: in every business, or only in
 * `businessIds` (a pharmacy user's reach).
 */
export async function findOrdersByText(
  db: Db,
  q: { text: string; businessIds?: readonly string[]; limit: number },
): Promise<StoredOrder[]> {
  const text = q.text.toLowerCase();
  let query = db
    .selectFrom('orders')
    .selectAll()
    .where((eb) => eb.or([eb(sql`lower(barcode)`, '=', text), eb(sql`lower(reference)`, '=', text)]));
  if (q.businessIds !== undefined) {
    if (q.businessIds.length === 0) return [];
    query = query.where('business_id', 'in', [...q.businessIds]);
  }
  return (await query.orderBy('id', 'desc').limit(q.limit).execute()).map(toStoredOrder);
}

/** The order, its row locked until the transaction ends: staff requests on one order run one at a time. */
export const lockOrder = async (db: Db, id: string): Promise<StoredOrder | undefined> =>
  stored(await db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst());

/**
 * When staff last asked for one of these messages of the order (dedupe key `order:{id}:{key}:request:…`),
 * if after `since`; messages the order sent by itself do not count.
 */
export const latestRequestedMessageSince = async (db: Db, orderId: string, templateKeys: string[], since: number) => {
  const row = await db
    .selectFrom('message_outbox')
    .select('created')
    .where('order_id', '=', orderId)
    .where('template_key', 'in', templateKeys)
    .where('dedupe_key', 'like', `order:${orderId}:%:request:%`)
    .where('created', '>', since)
    .orderBy('created', 'desc')
    .executeTakeFirst();
  return row ? Number(row.created) : null;
};

/**
 * Whether the order has a message of these channels that was handed to a provider after this one
 * (ids are UUIDv7, so later ids sort later): then that one is the order's "last" message, and an
 * older message's late report must not overwrite its status.
 */
export async function laterSentMessageExists(
  db: Db,
  orderId: string,
  messageId: string,
  channels: readonly ('sms' | 'email' | 'whatsapp')[],
): Promise<boolean> {
  const row = await db
    .selectFrom('message_outbox')
    .select('id')
    .where('order_id', '=', orderId)
    .where('channel', 'in', channels)
    .where('id', '>', messageId)
    .where('provider_message_id', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Sets the order's last status for this message's channel: `last_email_status` (with address, provider
 * status and details) for email, `last_notification_status` for SMS and WhatsApp. Answers the order as
 * it now is. The sender and the delivery reports both record through here.
 */
export const setOrderDeliveryStatus = async (
  db: Db,
  orderId: string,
  message: { channel: 'sms' | 'email' | 'whatsapp'; recipient: string; templateKey: string },
  delivery: OrderDelivery,
  now: number,
): Promise<StoredOrder | undefined> =>
  stored(
    await db
      .updateTable('orders')
      .set({
        ...(message.channel === 'email'
          ? {
              last_email_status: JSON.stringify({
                address: message.recipient,
                providerStatus: delivery.providerStatus,
                providerDetails: delivery.details,
                status: delivery.status,
                templateKey: message.templateKey,
                timestamp: now,
              }),
            }
          : { last_notification_status: JSON.stringify(delivery.status) }),
        updated: now,
      })
      .where('id', '=', orderId)
      .returningAll()
      .executeTakeFirst(),
  );
