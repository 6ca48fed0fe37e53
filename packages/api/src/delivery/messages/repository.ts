import type { Database } from '@medlocker/db';
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;
/** A connection or a transaction: what every function here takes first. */
export type Tx = Db;

/** `provider_status` of a message queued to be sent again after an unconfirmed send (reconcile.ts). */
export const RESEND = 'RESEND';

/** An outbox message as the sender, the reports and the reconciliation read it. */
export type QueuedMessage = {
  id: string;
  businessId: string | null;
  orderId: string | null;
  patientId: string | null;
  channel: 'sms' | 'email' | 'whatsapp';
  recipient: string;
  templateKey: string;
  subject: string | null;
  body: string;
  status: 'pending' | 'success' | 'failed';
  attempts: number;
  provider: string | null;
  providerMessageId: string | null;
  providerStatus: string | null;
  /** ms: when it was handed to a gateway (the hand-over mark), null before. */
  sentAt: number | null;
  /** ms: when it was queued. */
  created: number;
  /** How many of its sends had no word from the provider (reconcile.ts sends it again after each). */
  unconfirmedSends: number;
  /** ms: when staff were told it has not arrived, null before. */
  undeliveredAlertedAt: number | null;
};

const toQueuedMessage = (row: Selectable<Database['message_outbox']>): QueuedMessage => ({
  id: row.id,
  businessId: row.business_id,
  orderId: row.order_id,
  patientId: row.patient_id,
  channel: row.channel,
  recipient: row.recipient,
  templateKey: row.template_key,
  subject: row.subject,
  body: row.body,
  status: row.status,
  attempts: row.attempts,
  provider: row.provider,
  providerMessageId: row.provider_message_id,
  providerStatus: row.provider_status,
  sentAt: row.sent_at === null ? null : Number(row.sent_at),
  created: Number(row.created),
  unconfirmedSends: row.unconfirmed_sends,
  undeliveredAlertedAt: row.undelivered_alerted_at === null ? null : Number(row.undelivered_alerted_at),
});

/**
 * The outbox message a provider's report names, locked until the transaction ends so two reports for
 * one message (providers send several, sometimes at once) apply one after the other.
 */
export const lockMessageByProviderId = async (
  db: Db,
  provider: string,
  providerMessageId: string,
): Promise<QueuedMessage | undefined> => {
  const row = await db
    .selectFrom('message_outbox')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_message_id', '=', providerMessageId)
    .forUpdate()
    .executeTakeFirst();
  return row && toQueuedMessage(row);
};

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

/** One outbox message, locked until the transaction ends: the sender holds it while it decides and records. */
export const lockMessage = async (db: Db, id: string): Promise<QueuedMessage | undefined> => {
  const row = await db.selectFrom('message_outbox').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row && toQueuedMessage(row);
};
