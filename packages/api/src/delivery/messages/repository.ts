import type { Database } from '@medlocker/db';
import type { Kysely, Transaction, Updateable } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;
/** A connection or a transaction: what every function here takes first. */
export type Tx = Db;

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

/** One outbox message, locked until the transaction ends: the sender holds it while it decides and records. */
export const lockMessage = (db: Db, id: string) =>
  db.selectFrom('message_outbox').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export type MessageRow = NonNullable<Awaited<ReturnType<typeof lockMessage>>>;
