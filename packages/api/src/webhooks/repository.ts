import type { Database } from '@medlocker/db';
import { type Kysely, sql, type Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** The job that delivers one client's due webhooks (webhooks/dispatch.ts); one waiting or running per client. */
export const DISPATCH_JOB = 'webhooks.dispatch';
export const dispatchKey = (clientId: string) => `${DISPATCH_JOB}:${clientId}`;

export type StoredEvent = { eventId: string; clientId: string; sequence: number; delivered: boolean };

/**
 * Stores one event of a business for its integration client, in the caller's transaction, and its
 * webhook delivery when the client has a webhook URL: one statement, which stores nothing when the
 * business has no client. The client row's `event_seq` increment gives the sequence; its row lock, held
 * to commit, puts a business's events in commit order. The business's row is share-locked first (its
 * key, as the dispatch job's foreign key does): staff changing the client lock the business, then the
 * client's row, so every transaction takes the two in that order and none waits in a circle. The
 * delivery's id is the event's id (the `webhook-id`).
 */
export async function insertEvent(
  tx: Db,
  e: { id: string; businessId: string; type: string; orderingKey: string | null; payload: unknown; now: number },
): Promise<StoredEvent | null> {
  const { rows } = await sql<{ event_id: string; client_id: string; seq: string | number; delivery_id: string | null }>`
    with b as (
      select id from businesses where id = ${e.businessId} for key share
    ), c as (
      update integration_clients set event_seq = event_seq + 1
      where business_id = (select id from b)
      returning id, event_seq, webhook_url
    ), ev as (
      insert into integration_events (id, business_id, client_id, seq, type, ordering_key, payload, created)
      select ${e.id}, ${e.businessId}, c.id, c.event_seq, ${e.type}, ${e.orderingKey}, ${JSON.stringify(e.payload)}::jsonb, ${e.now}
      from c
      returning id, client_id, seq
    ), d as (
      insert into webhook_deliveries (id, business_id, client_id, event_id, event_type, ordering_key, next_attempt_at, created, updated)
      select ev.id, ${e.businessId}, ev.client_id, ev.id, ${e.type}, ${e.orderingKey}, ${e.now}, ${e.now}, ${e.now}
      from ev join c on c.id = ev.client_id
      where c.webhook_url is not null
      returning id
    )
    select ev.id as event_id, ev.client_id, ev.seq, d.id as delivery_id from ev left join d on true`.execute(tx);
  const row = rows[0];
  if (!row) return null;
  return {
    eventId: row.event_id,
    clientId: row.client_id,
    sequence: Number(row.seq),
    delivered: row.delivery_id !== null,
  };
}

/**
 * Makes sure the client's dispatch job runs by `runAfter`: queues it, or brings a waiting one forward.
 * A running one is left alone: it looks for due deliveries again before it ends (dispatch.ts), and the
 * row lock this upsert takes on it orders the two (see docs/DECISIONS.md "Webhook dispatch").
 */
export async function queueDispatch(
  tx: Db,
  q: { clientId: string; businessId: string; runAfter: number; now: number },
) {
  await sql`
    insert into jobs (id, type, business_id, payload, max_attempts, run_after, dedupe_key, created, updated)
    values (${Bun.randomUUIDv7()}, ${DISPATCH_JOB}, ${q.businessId}, ${JSON.stringify({ clientId: q.clientId })}::jsonb,
      1000000, ${q.runAfter}, ${dispatchKey(q.clientId)}, ${q.now}, ${q.now})
    on conflict (dedupe_key) where dedupe_key is not null and status <> 'done'
    do update set run_after = least(jobs.run_after, excluded.run_after), updated = excluded.updated
      where jobs.status = 'waiting'`.execute(tx);
}
