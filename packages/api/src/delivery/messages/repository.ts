import type { Database } from '@medlocker/db';
import type { Kysely, Transaction, Updateable } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** `provider_status` of a message queued to be sent once more after an unconfirmed send (messaging/reconcile.ts). */
export const RESEND = 'RESEND';

/**
 * The outbox message a provider's report names, locked until the transaction ends so two reports for
 * one message (providers send several, sometimes at once) apply one after the other.
 */
export const lockMessageByProviderId = (db: Db, provider: string, providerMessageId: string) =>
  db
    .selectFrom('message_outbox')
    .select([
      'id',
      'business_id',
      'order_id',
      'patient_id',
      'channel',
      'recipient',
      'template_key',
      'status',
      'provider_status',
    ])
    .where('provider', '=', provider)
    .where('provider_message_id', '=', providerMessageId)
    .forUpdate()
    .executeTakeFirst();

/**
 * A message sent without its provider id recorded (the sender died after the send: UNCONFIRMED), or
 * queued to be sent again after such a send (RESEND, not yet handed over again), that a report addressed
 * to it by our id names: the report's id is adopted so later reports find it (and a queued resend then
 * finds it confirmed and sends nothing).
 */
export async function adoptProviderId(
  db: Db,
  messageId: string,
  provider: string,
  providerMessageId: string,
  now: number,
) {
  await db
    .updateTable('message_outbox')
    .set((eb) => ({ provider_message_id: providerMessageId, sent_at: eb.fn.coalesce('sent_at', eb.val(now)) }))
    .where('id', '=', messageId)
    .where('provider', '=', provider)
    .where('provider_message_id', 'is', null)
    .where((eb) => eb.or([eb('sent_at', 'is not', null), eb('provider_status', '=', RESEND)]))
    .execute();
  return lockMessageByProviderId(db, provider, providerMessageId);
}

/**
 * Clears a message's hand-over mark after a retryable gateway failure, only if the mark is still the
 * one this attempt set and no one has recorded anything since (another worker that took the job after
 * this one's lease ran out may have recorded it UNCONFIRMED: then the mark stays, and so does its
 * reconciliation). Answers whether it cleared it.
 */
export async function clearHandOver(
  db: Db,
  id: string,
  mark: { sentAt: number; providerStatus: string | null },
  set: { last_error: string; updated: number },
): Promise<boolean> {
  const r = await db
    .updateTable('message_outbox')
    // A message queued for a resend keeps its provider, so a late report of the first send still finds it.
    .set({ sent_at: null, ...(mark.providerStatus === RESEND ? {} : { provider: null }), ...set })
    .where('id', '=', id)
    .where('sent_at', '=', mark.sentAt)
    .where('provider_message_id', 'is', null)
    .where('status', '=', 'pending')
    .where((eb) =>
      mark.providerStatus === null
        ? eb('provider_status', 'is', null)
        : eb('provider_status', '=', mark.providerStatus),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
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

/** Where a message stands, as the order keeps it: the status, and for email the provider's words too. */
export type OrderDelivery = {
  status: 'pending' | 'success' | 'failed';
  providerStatus: string | null;
  details: string | null;
};

/**
 * Sets the order's last status for this message's channel: `last_email_status` (with address, provider
 * status and details) for email, `last_notification_status` for SMS and WhatsApp. Answers the order as
 * it now is. The sender and the delivery reports both record through here.
 */
export const setOrderDeliveryStatus = (
  db: Db,
  orderId: string,
  message: { channel: 'sms' | 'email' | 'whatsapp'; recipient: string; template_key: string },
  delivery: OrderDelivery,
  now: number,
) =>
  db
    .updateTable('orders')
    .set({
      ...(message.channel === 'email'
        ? {
            last_email_status: JSON.stringify({
              address: message.recipient,
              providerStatus: delivery.providerStatus,
              providerDetails: delivery.details,
              status: delivery.status,
              templateKey: message.template_key,
              timestamp: now,
            }),
          }
        : { last_notification_status: JSON.stringify(delivery.status) }),
      updated: now,
    })
    .where('id', '=', orderId)
    .returningAll()
    .executeTakeFirst();

/** One outbox message, locked until the transaction ends: the sender holds it while it decides and records. */
export const lockMessage = (db: Db, id: string) =>
  db.selectFrom('message_outbox').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export type MessageRow = NonNullable<Awaited<ReturnType<typeof lockMessage>>>;
