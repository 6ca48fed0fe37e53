import { type Kysely, sql } from 'kysely';

/*
 * Frozen in time: imports nothing from packages/ or the rest of db/src. A change is a new migration.
 *
 * The integration API and its webhooks.
 * - `integration_clients`: the previous webhook signing secret keeps signing beside the new one until
 *   `webhook_secret_previous_until` (24 h after a rotation); `webhook_failing_since` is the start of an
 *   unbroken run of failed deliveries (null after any success); `webhook_disabled_at` is set when that
 *   run reaches 5 days (or by staff) and cleared when staff enable the endpoint again. `event_seq` is the
 *   last sequence number given to one of the client's events: the row lock of the increment orders a
 *   business's events in commit order, so a feed read by cursor never skips one committed late.
 * - `integration_tokens`: bearer tokens from `POST /integration/v1/oauth/token` (only their hash); a
 *   deleted client takes its tokens with it.
 * - `idempotency_keys`: the first answer to a POST with an `Idempotency-Key`, kept 24 hours.
 * - `integration_events`: what happened in the client's business, in `seq` order: the events feed and
 *   the source of webhook deliveries.
 * - `webhook_deliveries`: one per event (and per test event) to the client's webhook URL; its id is the
 *   `webhook-id`, the same on every attempt and replay. `ordering_key` (the order, machine or message it
 *   is about) keeps deliveries about one thing in order: a later one waits while an earlier one pends.
 * - `webhook_attempts`: each try of a delivery (time, HTTP status, latency, error, the first 1 KB of the
 *   response) for the delivery console.
 * - `webhook_outbox` (never written) is replaced by the two tables above.
 */

const UP = [
  `alter table integration_clients
    add column webhook_secret_previous_encrypted text,
    add column webhook_secret_previous_until bigint,
    add column webhook_failing_since bigint,
    add column webhook_disabled_at bigint,
    add column event_seq bigint not null default 0`,

  `create table integration_tokens (
    token_hash text primary key,
    client_id text not null references integration_clients (id) on delete cascade,
    business_id text not null,
    expires_at bigint not null,
    created bigint not null
  )`,
  `create index integration_tokens_client_idx on integration_tokens (client_id)`,
  `create index integration_tokens_expires_idx on integration_tokens (expires_at)`,

  `create table idempotency_keys (
    client_id text not null references integration_clients (id) on delete cascade,
    key text not null,
    method text not null,
    path text not null,
    request_hash text not null,
    status integer,
    response jsonb,
    created bigint not null,
    primary key (client_id, key)
  )`,
  `create index idempotency_keys_created_idx on idempotency_keys (created)`,

  `create table integration_events (
    id text primary key,
    business_id text not null,
    client_id text not null references integration_clients (id) on delete cascade,
    seq bigint not null,
    type text not null,
    ordering_key text,
    payload jsonb not null,
    created bigint not null,
    unique (client_id, seq)
  )`,
  `create index integration_events_created_idx on integration_events (created)`,

  `create table webhook_deliveries (
    id text primary key,
    business_id text not null,
    client_id text not null references integration_clients (id) on delete cascade,
    event_id text not null references integration_events (id) on delete cascade,
    event_type text not null,
    ordering_key text,
    status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
    attempts integer not null default 0,
    -- the step of the retry schedule the next failure moves to (a replay starts it again)
    schedule_step integer not null default 0,
    -- staff asked for it again (replay): its next attempt is recorded with trigger 'replay'
    replay_requested boolean not null default false,
    next_attempt_at bigint not null,
    last_attempt_at bigint,
    last_status integer,
    last_error text,
    delivered_at bigint,
    created bigint not null,
    updated bigint not null
  )`,
  `create index webhook_deliveries_due_idx on webhook_deliveries (client_id, next_attempt_at) where status = 'pending'`,
  `create index webhook_deliveries_order_idx on webhook_deliveries (client_id, ordering_key, id) where status = 'pending'`,
  `create index webhook_deliveries_list_idx on webhook_deliveries (business_id, id)`,
  `create index webhook_deliveries_event_idx on webhook_deliveries (event_id)`,

  `create table webhook_attempts (
    id text primary key,
    delivery_id text not null references webhook_deliveries (id) on delete cascade,
    business_id text not null,
    attempted_at bigint not null,
    trigger text not null check (trigger in ('schedule', 'replay', 'test')),
    status integer,
    latency_ms integer not null,
    error text,
    response_excerpt text
  )`,
  `create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, attempted_at)`,

  'drop table webhook_outbox',
];

const DOWN = [
  `create table webhook_outbox (
    id text primary key,
    business_id text not null,
    integration_client_id text not null,
    event_type text not null,
    payload jsonb not null,
    status text not null default 'pending' check (status in ('pending', 'success', 'failed')),
    attempts integer not null default 0,
    next_attempt_at bigint not null,
    last_error text,
    response_status integer,
    delivered_at bigint,
    created bigint not null,
    updated bigint not null,
    foreign key (business_id, integration_client_id) references integration_clients (business_id, id)
      on delete restrict
  )`,
  `create index webhook_outbox_due_idx on webhook_outbox (status, next_attempt_at)`,
  `create index webhook_outbox_business_idx on webhook_outbox (business_id, id)`,
  'alter table webhook_outbox add column dedupe_key text',
  'create unique index webhook_outbox_dedupe_idx on webhook_outbox (dedupe_key) where dedupe_key is not null',
  'drop table webhook_attempts',
  'drop table webhook_deliveries',
  'drop table integration_events',
  'drop table idempotency_keys',
  'drop table integration_tokens',
  `alter table integration_clients
    drop column webhook_secret_previous_encrypted,
    drop column webhook_secret_previous_until,
    drop column webhook_failing_since,
    drop column webhook_disabled_at,
    drop column event_seq`,
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and independent of the typed schema.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
