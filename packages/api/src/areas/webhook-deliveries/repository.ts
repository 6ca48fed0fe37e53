import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookOutcome } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { newestFirst } from '../../lists/newest-first-repository.ts';

/*
 * The delivery console's reads and its few writes on the dispatcher's tables (migration 0026):
 * webhook_deliveries, webhook_attempts and the endpoint columns of integration_clients.
 */

export type Db = Kysely<Database> | Transaction<Database>;
type DeliveryRow = Selectable<Database['webhook_deliveries']>;
type AttemptRow = Selectable<Database['webhook_attempts']>;

function toDelivery(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    eventType: r.event_type,
    orderingKey: r.ordering_key,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
    lastAttemptAt: r.last_attempt_at,
    lastStatus: r.last_status,
    lastError: r.last_error,
    deliveredAt: r.delivered_at,
    created: r.created,
  };
}

/** A delivery with whose it is and the event it sends. */
export type StoredDelivery = { delivery: WebhookDelivery; clientId: string; businessId: string; eventId: string };

const toStored = (r: DeliveryRow): StoredDelivery => ({
  delivery: toDelivery(r),
  clientId: r.client_id,
  businessId: r.business_id,
  eventId: r.event_id,
});

const toAttempt = (r: AttemptRow): WebhookAttempt => ({
  id: r.id,
  attemptedAt: r.attempted_at,
  trigger: r.trigger,
  status: r.status,
  latencyMs: r.latency_ms,
  error: r.error,
  responseExcerpt: r.response_excerpt,
});

/**
 * A business's deliveries newest first (ids are UUIDv7, so id order is creation order), filtered as
 * given, strictly before the cursor, `limit + 1` rows.
 */
export async function listDeliveryRows(
  db: Db,
  q: {
    businessId: string;
    eventType?: string;
    outcome?: WebhookOutcome;
    since?: number;
    before?: string;
    limit: number;
  },
): Promise<WebhookDelivery[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('business_id', '=', q.businessId);
  if (q.eventType) query = query.where('event_type', '=', q.eventType);
  if (q.outcome) query = query.where('status', '=', q.outcome);
  if (q.since !== undefined) query = query.where('created', '>=', q.since);
  return (await newestFirst(query, q)).map(toDelivery);
}

/** One delivery; with `lock`, its row is held to the end of the transaction (a replay against the dispatcher). */
export async function findDelivery(db: Db, id: string, lock = false): Promise<StoredDelivery | undefined> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toStored(row);
}

/** The stored event a delivery sends (its body is `eventBody` of this row). */
export const findEventOf = (db: Db, eventId: string) =>
  db
    .selectFrom('integration_events')
    .select(['id', 'seq', 'type', 'payload', 'created'])
    .where('id', '=', eventId)
    .executeTakeFirst();

/** A delivery's attempts, oldest first. */
export async function listAttempts(db: Db, deliveryId: string): Promise<WebhookAttempt[]> {
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
  return rows.map(toAttempt);
}

/**
 * What a replay sets (the dispatcher reads it): pending from the first step of the retry schedule, due
 * now, its next attempt recorded as a replay.
 */
const replayed = (now: number) =>
  ({ status: 'pending', schedule_step: 0, next_attempt_at: now, replay_requested: true, updated: now }) as const;

/** Replays one delivery unless it is pending already (it is queued): the row, or undefined when not replayed. */
export async function replayDeliveryRow(db: Db, id: string, now: number): Promise<StoredDelivery | undefined> {
  const row = await db
    .updateTable('webhook_deliveries')
    .set(replayed(now))
    .where('id', '=', id)
    .where('status', '<>', 'pending')
    .returningAll()
    .executeTakeFirst();
  return row && toStored(row);
}

/** Replays every failed delivery of the client made at or after `since`; answers how many. */
export async function replayFailedRows(db: Db, q: { clientId: string; since: number; now: number }): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set(replayed(q.now))
    .where('client_id', '=', q.clientId)
    .where('status', '=', 'failed')
    .where('created', '>=', q.since)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The business's integration client as its webhook endpoint. */
export type EndpointClient = {
  id: string;
  businessId: string;
  webhookUrl: string | null;
  disabledAt: number | null;
  failingSince: number | null;
};

/** The business's integration client, its endpoint columns only; with `lock`, held to the transaction's end. */
export async function findEndpointClient(
  db: Db,
  businessId: string,
  lock = false,
): Promise<EndpointClient | undefined> {
  let query = db
    .selectFrom('integration_clients')
    .select(['id', 'business_id', 'webhook_url', 'webhook_disabled_at', 'webhook_failing_since'])
    .where('business_id', '=', businessId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return (
    row && {
      id: row.id,
      businessId: row.business_id,
      webhookUrl: row.webhook_url,
      disabledAt: row.webhook_disabled_at,
      failingSince: row.webhook_failing_since,
    }
  );
}

/** The endpoint as the console's header shows it: the client's columns and counts of its deliveries. */
export async function endpointOf(db: Db, client: EndpointClient): Promise<WebhookEndpoint> {
  const counts = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('status', '=', 'pending').as('pending'),
      eb.fn.countAll<string>().filterWhere('status', '=', 'failed').as('failed'),
      eb.fn.max('delivered_at').as('last_success'),
    ])
    .where('client_id', '=', client.id)
    .executeTakeFirst();
  const lastSuccess = counts?.last_success;
  return {
    clientId: client.id,
    url: client.webhookUrl,
    disabledAt: client.disabledAt,
    failingSince: client.failingSince,
    pendingCount: Number(counts?.pending ?? 0),
    failedCount: Number(counts?.failed ?? 0),
    lastSuccessAt: lastSuccess === null || lastSuccess === undefined ? null : Number(lastSuccess),
  };
}

/** Enables a disabled endpoint again: the run of failures that disabled it is forgotten too. */
export async function enableEndpointOf(db: Db, clientId: string, now: number): Promise<void> {
  await db
    .updateTable('integration_clients')
    .set({ webhook_disabled_at: null, webhook_failing_since: null, updated: now })
    .where('id', '=', clientId)
    .execute();
}
