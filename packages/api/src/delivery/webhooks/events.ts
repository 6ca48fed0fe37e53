import { type IntegrationEvent, type IntegrationEventType, isoTime, type WEBHOOK_TEST_EVENT } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import { insertEvent, queueDispatch, type StoredEvent } from './repository.ts';

/*
 * The events of the integration API: every change a pharmacy's record system hears of is
 * recorded here, in the transaction of the change, as one row of the business's feed and (when its
 * client has a webhook URL) one webhook delivery, which the dispatch job sends (webhooks/dispatch.ts).
 */

type Tx = Kysely<Database> | Transaction<Database>;

export type NewEvent = {
  businessId: string;
  type: IntegrationEventType | typeof WEBHOOK_TEST_EVENT;
  /**
   * What the event is about, for ordering: deliveries with the same key go in order (the order's id
   * for order.* events, the machine's for machine.*, the message's for message.status).
   */
  orderingKey: string | null;
  /** The object, as the integration API shows it (core's toIntegrationOrder, …). */
  data: Record<string, unknown>;
};

/**
 * Records an event in the caller's transaction (pass the transaction, so it commits with the change).
 * Answers what was stored, or null when the business has no integration client (nothing is stored).
 */
export async function recordEvent(tx: Tx, event: NewEvent, now: number): Promise<StoredEvent | null> {
  const stored = await insertEvent(tx, {
    id: Bun.randomUUIDv7(),
    businessId: event.businessId,
    type: event.type,
    orderingKey: event.orderingKey,
    payload: event.data,
    now,
  });
  if (stored?.delivered) {
    await queueDispatch(tx, { clientId: stored.clientId, businessId: event.businessId, runAfter: now, now });
  }
  return stored;
}

/** The JSON an event is on the feed and in a webhook's body. */
export function eventBody(row: {
  id: string;
  seq: number | string;
  type: string;
  payload: unknown;
  created: number | string;
}): IntegrationEvent {
  return {
    id: row.id,
    sequence: Number(row.seq),
    type: row.type,
    timestamp: isoTime(Number(row.created)),
    data: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>,
  };
}
