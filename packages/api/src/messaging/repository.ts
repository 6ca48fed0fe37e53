import type { Database } from '@medlocker/db';
import type { Kysely, Transaction, Updateable } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The outbox message a provider's report names, locked until the transaction ends so two reports for
 * one message (providers send several, sometimes at once) apply one after the other.
 */
export const lockMessageByProviderId = (db: Db, provider: string, providerMessageId: string) =>
  db
    .selectFrom('message_outbox')
    .select(['id', 'business_id', 'order_id', 'channel', 'recipient', 'template_key', 'status', 'provider_status'])
    .where('provider', '=', provider)
    .where('provider_message_id', '=', providerMessageId)
    .forUpdate()
    .executeTakeFirst();

/**
 * A message sent without its provider id recorded (the sender died after the send: UNCONFIRMED) that a
 * report addressed to it by our id names: the report's id is adopted so later reports find it.
 */
export async function adoptProviderId(db: Db, messageId: string, provider: string, providerMessageId: string) {
  await db
    .updateTable('message_outbox')
    .set({ provider_message_id: providerMessageId })
    .where('id', '=', messageId)
    .where('provider', '=', provider)
    .where('provider_message_id', 'is', null)
    .where('sent_at', 'is not', null)
    .execute();
  return lockMessageByProviderId(db, provider, providerMessageId);
}

export const updateMessageDelivery = (db: Db, id: string, set: Updateable<Database['message_outbox']>) =>
  db.updateTable('message_outbox').set(set).where('id', '=', id).execute();

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

/** Sets an order's last notification or email status; answers the order as it now is. */
export const setOrderDeliveryStatus = (
  db: Db,
  orderId: string,
  set: Pick<Updateable<Database['orders']>, 'last_notification_status' | 'last_email_status' | 'updated'>,
) => db.updateTable('orders').set(set).where('id', '=', orderId).returningAll().executeTakeFirst();

/** One outbox message, locked until the transaction ends: the sender holds it while it decides and records. */
export const lockMessage = (db: Db, id: string) =>
  db.selectFrom('message_outbox').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export type MessageRow = NonNullable<Awaited<ReturnType<typeof lockMessage>>>;
