import { type OrderStatus, WEBHOOK_TEST_EVENT } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { type StoredOrder, toStoredOrder } from '../areas/orders/index.ts';

/*
 * The integration API's SQL: bearer tokens, the per-client request window, idempotency keys,
 * and the reads its resources need beyond the console's repositories.
 */

export type Db = Kysely<Database> | Transaction<Database>;
type EventRow = Selectable<Database['integration_events']>;
type MachineRow = Selectable<Database['machines']>;

// ── clients and tokens ────────────────────────────────────────────────────────────────────────

/** A client's id and the hash of its secret (null: none generated yet). */
export async function findClientSecret(db: Db, clientId: string) {
  const row = await db
    .selectFrom('integration_clients')
    .select(['id', 'secret_hash'])
    .where('id', '=', clientId)
    .executeTakeFirst();
  return row && { id: row.id, secretHash: row.secret_hash };
}

/**
 * Stores a new token (its hash only) and drops the client's expired ones; false (nothing stored) when
 * the client's secret is no longer `secretHash`. The client's row is share-locked and read again after
 * any change in flight: a new secret generated while this token was being made (which deletes the
 * client's tokens) leaves no token of the old secret behind.
 */
export async function insertToken(
  db: Db,
  t: { hash: string; clientId: string; secretHash: string; expiresAt: number; now: number },
): Promise<boolean> {
  await db
    .deleteFrom('integration_tokens')
    .where('client_id', '=', t.clientId)
    .where('expires_at', '<=', t.now)
    .execute();
  const { rows } = await sql<{ token_hash: string }>`
    insert into integration_tokens (token_hash, client_id, business_id, expires_at, created)
    select ${t.hash}, c.id, c.business_id, ${t.expiresAt}::bigint, ${t.now}::bigint
    from integration_clients c
    where c.id = ${t.clientId} and c.secret_hash = ${t.secretHash}
    for key share
    returning token_hash`.execute(db);
  return rows.length > 0;
}

/** The client of a live token: the token's row goes when its client is deleted (on delete cascade). */
/** The client and business of a bearer token that has not expired. */
export async function findLiveToken(db: Db, hash: string, now: number) {
  const row = await db
    .selectFrom('integration_tokens as t')
    .innerJoin('integration_clients as c', 'c.id', 't.client_id')
    .select(['t.client_id', 'c.business_id'])
    .where('t.token_hash', '=', hash)
    .where('t.expires_at', '>', now)
    .executeTakeFirst();
  return row && { clientId: row.client_id, businessId: row.business_id };
}

// ── the request window ─────────────────────────────────────────────────────────────────────────

export type Window = { periodStart: number; requestsMade: number; rateLimit: number };

/**
 * Counts one request in the client's fixed window of `periodMs`, in one statement (so concurrent
 * requests in any number of processes cannot all take the last one): a window that has ended starts
 * again at `now`. Answers the window after counting, or `counted: false` with the window as it is when
 * the client has used it up (then nothing is counted).
 */
export async function countRequest(
  db: Db,
  clientId: string,
  now: number,
  periodMs: number,
): Promise<{ counted: boolean; window: Window } | null> {
  const ended = sql<boolean>`(integration_clients.period_start + ${periodMs}::bigint <= ${now}::bigint)`;
  const counted = await db
    .updateTable('integration_clients')
    .set({
      period_start: sql`case when ${ended} then ${now}::bigint else integration_clients.period_start end`,
      requests_made: sql`case when ${ended} then 1 else integration_clients.requests_made + 1 end`,
    })
    .where('id', '=', clientId)
    .where(sql<boolean>`(${ended} or integration_clients.requests_made < integration_clients.rate_limit)`)
    .returning(['period_start', 'requests_made', 'rate_limit'])
    .executeTakeFirst();
  if (counted) return { counted: true, window: windowOf(counted) };
  const current = await db
    .selectFrom('integration_clients')
    .select(['period_start', 'requests_made', 'rate_limit'])
    .where('id', '=', clientId)
    .executeTakeFirst();
  return current ? { counted: false, window: windowOf(current) } : null;
}

const windowOf = (r: { period_start: number | string; requests_made: number; rate_limit: number }): Window => ({
  periodStart: Number(r.period_start),
  requestsMade: r.requests_made,
  rateLimit: r.rate_limit,
});

// ── idempotency keys ──────────────────────────────────────────────────────────────────────────

export type StoredKey = { method: string; path: string; requestHash: string; status: number | null; response: unknown };

/**
 * Claims `key` for this request: true when this request is the first with it (or the one before is
 * older than `expiredBefore`, and is replaced), false when another request has it.
 */
export async function claimKey(
  db: Db,
  k: { clientId: string; key: string; method: string; path: string; requestHash: string; now: number },
  expiredBefore: number,
): Promise<boolean> {
  const claim = {
    method: k.method,
    path: k.path,
    request_hash: k.requestHash,
    status: null,
    response: null,
    created: k.now,
  };
  const row = await db
    .insertInto('idempotency_keys')
    .values({ client_id: k.clientId, key: k.key, ...claim })
    .onConflict((oc) =>
      oc.columns(['client_id', 'key']).doUpdateSet(claim).where('idempotency_keys.created', '<', expiredBefore),
    )
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findKey(db: Db, clientId: string, key: string): Promise<StoredKey | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['method', 'path', 'request_hash', 'status', 'response'])
    .where('client_id', '=', clientId)
    .where('key', '=', key)
    .executeTakeFirst();
  return (
    row && {
      method: row.method,
      path: row.path,
      requestHash: row.request_hash,
      status: row.status,
      response: typeof row.response === 'string' ? JSON.parse(row.response) : row.response,
    }
  );
}

export async function saveKeyResponse(db: Db, clientId: string, key: string, status: number, response: unknown) {
  await db
    .updateTable('idempotency_keys')
    .set({ status, response: JSON.stringify(response) })
    .where('client_id', '=', clientId)
    .where('key', '=', key)
    .execute();
}

/** Frees a key whose request ended without an answer to keep (a failure on our side). */
export async function releaseKey(db: Db, clientId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('client_id', '=', clientId)
    .where('key', '=', key)
    .where('status', 'is', null)
    .execute();
}

/** Drops idempotency keys made before `before` and tokens expired by `now`: the hourly prune. */
export async function pruneIntegrationRows(db: Db, before: number, now: number): Promise<number> {
  const keys = await db.deleteFrom('idempotency_keys').where('created', '<', before).executeTakeFirst();
  const tokens = await db.deleteFrom('integration_tokens').where('expires_at', '<=', now).executeTakeFirst();
  return Number(keys.numDeletedRows) + Number(tokens.numDeletedRows);
}

// ── resources ─────────────────────────────────────────────────────────────────────────────────

export type IntegrationOrderFilter = {
  businessId: string;
  status?: OrderStatus;
  patientId?: string;
  barcode?: string;
  createdFrom?: number;
  createdTo?: number;
  /** The id of the last order of the previous page (newest first). */
  before?: string;
  limit: number;
};

/** A business's orders, newest first (ids are time-ordered), `limit` of them, keyset-paged on the id. */
export async function listOrdersFiltered(db: Db, q: IntegrationOrderFilter): Promise<StoredOrder[]> {
  let query = db.selectFrom('orders').selectAll().where('business_id', '=', q.businessId);
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  if (q.patientId !== undefined) query = query.where('patient_id', '=', q.patientId);
  if (q.barcode !== undefined) query = query.where('barcode', '=', q.barcode);
  if (q.createdFrom !== undefined) query = query.where('created', '>=', q.createdFrom);
  if (q.createdTo !== undefined) query = query.where('created', '<', q.createdTo);
  if (q.before !== undefined) query = query.where('id', '<', q.before);
  return (await query.orderBy('id', 'desc').limit(q.limit).execute()).map(toStoredOrder);
}

/** A business's machines that are not archived, by name (a business has a handful). */
export const listBusinessMachines = (db: Db, businessId: string): Promise<MachineRow[]> =>
  db
    .selectFrom('machines')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('archived_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .limit(1000)
    .execute();

/** How many bags a machine holds now (each in its own slot). */
export async function occupiedSlots(db: Db, machineId: string): Promise<number> {
  const row = await db
    .selectFrom('bags')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('machine_id', '=', machineId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The client's feed after `after`, in sequence order; test events are for webhooks only. */
export const listFeedEvents = (db: Db, clientId: string, after: number, limit: number): Promise<EventRow[]> =>
  db
    .selectFrom('integration_events')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('seq', '>', after)
    .where('type', '<>', WEBHOOK_TEST_EVENT)
    .orderBy('seq')
    .limit(limit)
    .execute();
