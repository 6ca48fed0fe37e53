import type { Database } from '@medlocker/db';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { enqueueJob } from '../../jobs/repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The job that delivers one client's due webhooks (webhooks/dispatch.ts); one waiting or running per client. */
export const DISPATCH_JOB = 'webhooks.dispatch' as const;
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
 * Makes sure the client's dispatch job runs by `runAfter` (with the id of the request being handled, as
 * enqueueJob stores it): queues it, or brings a waiting one forward.
 * A running one is left alone: it looks for due deliveries again before it ends (dispatch.ts), and the
 * row lock this upsert takes on it orders the two (see docs/decisions/webhooks.md "Webhook dispatch").
 */
export async function queueDispatch(
  tx: Db,
  q: { clientId: string; businessId: string; runAfter: number; now: number },
) {
  await enqueueJob(
    tx,
    {
      type: DISPATCH_JOB,
      payload: { clientId: q.clientId },
      businessId: q.businessId,
      runAfter: q.runAfter,
      dedupeKey: dispatchKey(q.clientId),
      // It runs until the client has nothing due: attempts are not a budget here.
      maxAttempts: 1_000_000,
      onDuplicate: 'runSooner',
    },
    q.now,
  );
}

/** What the dispatch job needs of a client: where to send, with which secrets, and its endpoint's health. */
export type DispatchClient = {
  id: string;
  businessId: string;
  name: string;
  contactEmail: string | null;
  webhookUrl: string | null;
  webhookSecretSealed: string | null;
  /** The secret before the last rotation, sealed, and until when it still signs beside the new one. */
  previousSecretSealed: string | null;
  previousSecretUntil: number | null;
  failingSince: number | null;
  disabledAt: number | null;
};

export async function findDispatchClient(db: Db, clientId: string): Promise<DispatchClient | undefined> {
  const row = await db
    .selectFrom('integration_clients')
    .select([
      'id',
      'business_id',
      'name',
      'contact_email',
      'webhook_url',
      'webhook_secret_encrypted',
      'webhook_secret_previous_encrypted',
      'webhook_secret_previous_until',
      'webhook_failing_since',
      'webhook_disabled_at',
    ])
    .where('id', '=', clientId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      businessId: row.business_id,
      name: row.name,
      contactEmail: row.contact_email,
      webhookUrl: row.webhook_url,
      webhookSecretSealed: row.webhook_secret_encrypted,
      previousSecretSealed: row.webhook_secret_previous_encrypted,
      previousSecretUntil:
        row.webhook_secret_previous_until === null ? null : Number(row.webhook_secret_previous_until),
      failingSince: row.webhook_failing_since === null ? null : Number(row.webhook_failing_since),
      disabledAt: row.webhook_disabled_at === null ? null : Number(row.webhook_disabled_at),
    }
  );
}

/**
 * The pending deliveries with their place in their ordering key: place 1 is the head (no earlier pending
 * delivery of the client with the same key; ids are UUIDv7, the order the events were recorded in; a null
 * key is a key of its own). A delivery that is dead ('failed') or done no longer holds the ones after it.
 * One pass over the pending rows with a window, not a lookup per row: the plan does not depend on the
 * table's statistics (a fresh table's lookup plan scanned the client's whole backlog once per row:
 * bench/webhooks, docs/decisions/webhooks.md "Webhook dispatch").
 */
const pendingWithPlace = (where: RawBuilder<boolean>) => sql`(
  select d.id, d.client_id, d.business_id, d.event_id, d.event_type, d.schedule_step, d.replay_requested,
    d.next_attempt_at,
    row_number() over (partition by d.client_id, coalesce(d.ordering_key, d.id) order by d.id) as place
  from webhook_deliveries d
  where d.status = 'pending' and ${where})`;

export type DueDelivery = {
  id: string;
  eventType: string;
  /** How far along the retry schedule it is (0: not yet tried). */
  scheduleStep: number;
  replayRequested: boolean;
  seq: number;
  payload: unknown;
  created: number;
};

/** The client's due deliveries that head their ordering key, oldest due first, with their events. */
export async function dueHeads(db: Db, clientId: string, now: number, limit: number): Promise<DueDelivery[]> {
  const { rows } = await sql<{
    id: string;
    event_type: string;
    schedule_step: number;
    replay_requested: boolean;
    seq: string | number;
    payload: unknown;
    created: string | number;
  }>`
    select h.id, h.event_type, h.schedule_step, h.replay_requested, e.seq, e.payload, e.created
    from ${pendingWithPlace(sql`d.client_id = ${clientId}`)} h
    join integration_events e on e.id = h.event_id
    where h.place = 1 and h.next_attempt_at <= ${now}
    order by h.next_attempt_at, h.id
    limit ${limit}`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    eventType: r.event_type,
    scheduleStep: Number(r.schedule_step),
    replayRequested: r.replay_requested,
    seq: Number(r.seq),
    payload: r.payload,
    created: Number(r.created),
  }));
}

/** The earliest time one of the client's pending heads is due, or null (none, or the endpoint is off). */
export async function nextDueHead(db: Db, clientId: string): Promise<number | null> {
  const { rows } = await sql<{ at: string | number | null }>`
    select min(h.next_attempt_at) as at
    from ${pendingWithPlace(sql`d.client_id = ${clientId}`)} h
    join integration_clients c on c.id = h.client_id
    where h.place = 1 and c.webhook_url is not null and c.webhook_disabled_at is null`.execute(db);
  const at = rows[0]?.at;
  return at === null || at === undefined ? null : Number(at);
}

/** Clients with a due head and an endpoint to send to: the sweep queues their dispatch jobs. */
export async function clientsWithDueHeads(db: Db, now: number) {
  const { rows } = await sql<{ client_id: string; business_id: string }>`
    select distinct h.client_id, h.business_id
    from ${pendingWithPlace(sql<boolean>`true`)} h
    join integration_clients c on c.id = h.client_id
    where h.place = 1 and h.next_attempt_at <= ${now}
      and c.webhook_url is not null and c.webhook_disabled_at is null`.execute(db);
  return rows.map((r) => ({ clientId: r.client_id, businessId: r.business_id }));
}

export type AttemptRecord = {
  id: string;
  deliveryId: string;
  trigger: 'schedule' | 'replay' | 'test';
  status: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
  /** What the delivery becomes: still pending (next attempt at), succeeded or failed (dead). */
  outcome: 'pending' | 'succeeded' | 'failed';
  scheduleStep: number;
  nextAttemptAt: number | null;
};

/**
 * Records a batch of attempts and their deliveries' new state: two statements for the whole batch (each
 * reads the batch as one JSON parameter), in the caller's transaction. A delivery no longer pending is
 * not moved (a batch sent twice, e.g. by a process whose job was taken over, never turns a delivered one
 * back to pending or failed); its attempt is still listed.
 */
export async function recordAttempts(tx: Db, businessId: string, attempts: AttemptRecord[], now: number) {
  if (attempts.length === 0) return;
  const rows = JSON.stringify(
    attempts.map((a) => ({
      id: a.id,
      delivery_id: a.deliveryId,
      trigger: a.trigger,
      status: a.status,
      latency_ms: a.latencyMs,
      error: a.error,
      response_excerpt: a.excerpt,
      outcome: a.outcome,
      schedule_step: a.scheduleStep,
      next_attempt_at: a.nextAttemptAt,
    })),
  );
  await sql`
    insert into webhook_attempts (id, delivery_id, business_id, attempted_at, trigger, status, latency_ms, error, response_excerpt)
    select v.id, v.delivery_id, ${businessId}, ${now}, v.trigger, v.status, v.latency_ms, v.error, v.response_excerpt
    from jsonb_to_recordset(${rows}::jsonb) as v(id text, delivery_id text, trigger text, status integer,
      latency_ms integer, error text, response_excerpt text)`.execute(tx);
  await sql`
    update webhook_deliveries d set
      status = v.outcome,
      attempts = d.attempts + 1,
      schedule_step = v.schedule_step,
      replay_requested = false,
      next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at),
      last_attempt_at = ${now},
      last_status = v.status,
      last_error = v.error,
      delivered_at = case when v.outcome = 'succeeded' then ${now}::bigint else d.delivered_at end,
      updated = ${now}
    from jsonb_to_recordset(${rows}::jsonb) as v(delivery_id text, outcome text, schedule_step integer,
      next_attempt_at bigint, status integer, error text)
    where d.id = v.delivery_id and d.status = 'pending'`.execute(tx);
}

/**
 * Takes the business's row (key share: it blocks only staff changing the business itself) before the
 * client's: staff saving a client take the business's row, then the client's, and telling a business
 * its endpoint is disabled writes rows that refer to the business, so a batch takes them in that order
 * too (as insertEvent does).
 */
export async function lockBusinessKey(tx: Db, businessId: string): Promise<void> {
  await sql`select id from businesses where id = ${businessId} for key share`.execute(tx);
}

/**
 * The endpoint's health after a batch: any success ends a run of failures; a failure starts one (or
 * continues it). Answers when the current run started (null: the endpoint is working; undefined: the
 * client is gone).
 */
export async function updateEndpointHealth(
  tx: Db,
  clientId: string,
  batch: { succeeded: boolean; failedAt: number | null },
): Promise<number | null | undefined> {
  const row = await tx
    .updateTable('integration_clients')
    .set((eb) => ({
      webhook_failing_since: batch.succeeded
        ? null
        : eb.fn.coalesce('webhook_failing_since', sql<number>`${batch.failedAt}::bigint`),
    }))
    .where('id', '=', clientId)
    .returning('webhook_failing_since')
    .executeTakeFirst();
  if (!row) return undefined;
  const since = row.webhook_failing_since;
  return since === null ? null : Number(since);
}

/** Disables the endpoint unless it already is: true when this call did (so its business is told once). */
export async function disableEndpoint(tx: Db, clientId: string, now: number): Promise<boolean> {
  const row = await tx
    .updateTable('integration_clients')
    .set({ webhook_disabled_at: now, updated: now })
    .where('id', '=', clientId)
    .where('webhook_disabled_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
