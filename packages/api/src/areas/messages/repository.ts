import type { DeliveryStatus, OutboxMessage } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import { newestFirst } from '../../lists/newest-first-repository.ts';
import { camelRow } from '../../rows/camel-row.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** What the outbox list reads of a message: not the provider's ids and details, not the retry clock. */
const listed = [
  'id',
  'business_id',
  'patient_id',
  'channel',
  'recipient',
  'template_key',
  'subject',
  'body',
  'status',
  'attempts',
  'last_error',
  'created',
  'sent_at',
] as const;

/**
 * A business's outbox newest first (ids are UUIDv7, so id order is creation order), of one delivery
 * status if given, strictly before the cursor, `limit + 1` rows.
 */
export async function listOutboxMessages(
  db: Db,
  q: { businessId: string; status?: DeliveryStatus; before?: string; limit: number },
): Promise<ListedMessage[]> {
  let query = db.selectFrom('message_outbox').select(listed).where('business_id', '=', q.businessId);
  if (q.status) query = query.where('status', '=', q.status);
  // The listed columns are the message's fields, under their camelCase names.
  return (await newestFirst(query, q)).map(camelRow);
}

/** A listed message: core's OutboxMessage with its body, and whose it is (for the audit of the read). */
export type ListedMessage = OutboxMessage & { businessId: string | null; patientId: string | null };
