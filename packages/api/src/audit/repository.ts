import type { AuditEntry } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type InsertObject, type Kysely, type Selectable, sql, type Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

export type AuditRow = InsertObject<Database, 'audit_log'>;

/** Appends audit rows in one statement, inside the caller's transaction when given one. */
export async function insertAuditRows(db: Db, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('audit_log').values(rows).execute();
}

/** An audit row as tests and a future audit page read it. */
export type AuditRecord = {
  at: number;
  actorUserId: string | null;
  actorDisplay: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  ip: string | null;
  requestId: string | null;
  details: unknown;
};

type StoredAuditRow = Selectable<Database['audit_log']>;

const recordOf = (r: StoredAuditRow): AuditRecord => ({
  at: Number(r.at),
  actorUserId: r.actor_user_id,
  actorDisplay: r.actor_display,
  action: r.action,
  entityType: r.entity_type,
  entityId: r.entity_id,
  ip: r.ip,
  requestId: r.request_id,
  details: r.details,
});

/** Audit rows, oldest first, optionally of one action. */
export async function listAudit(db: Kysely<Database>, action?: string): Promise<AuditRecord[]> {
  let q = db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id');
  if (action) q = q.where('action', '=', action);
  return (await q.execute()).map(recordOf);
}

/** What a search of the audit trail narrows to (core's AuditFilters, a business's own filter resolved). */
export type AuditQuery = {
  /** Only entries of these businesses; null: every entry, those about no business included. */
  businesses: readonly string[] | null;
  patientId?: string;
  userId?: string;
  orderId?: string;
  action?: string;
  since?: number;
  until?: number;
  /** The (at, id) of the last entry of the previous page. */
  after?: [number, string];
  limit: number;
};

/** The query of one business (or of all, `undefined`): each filter leads one index ending in (at, id). */
function pageQuery(db: Kysely<Database>, q: AuditQuery, businessId: string | undefined) {
  let s = db.selectFrom('audit_log').selectAll();
  if (businessId !== undefined) s = s.where('business_id', '=', businessId);
  if (q.patientId !== undefined) s = s.where('patient_id', '=', q.patientId);
  if (q.userId !== undefined) s = s.where('actor_user_id', '=', q.userId);
  if (q.orderId !== undefined) s = s.where('entity_type', '=', 'order').where('entity_id', '=', q.orderId);
  if (q.action !== undefined) s = s.where('action', '=', q.action);
  if (q.since !== undefined) s = s.where('at', '>=', q.since);
  if (q.until !== undefined) s = s.where('at', '<', q.until);
  if (q.after) s = s.where(sql<boolean>`(at, id) < (${q.after[0]}, ${q.after[1]})`);
  return s.orderBy('at', 'desc').orderBy('id', 'desc').limit(q.limit);
}

const entryOf = (r: StoredAuditRow): AuditEntry => ({
  id: r.id,
  ...recordOf(r),
  businessId: r.business_id,
  patientId: r.patient_id,
  details: r.details !== null && typeof r.details === 'object' && !Array.isArray(r.details) ? r.details : {},
});

/**
 * A page of the audit trail, newest first, keyset-paged on (at, id), never OFFSET. Several businesses
 * (a group's Admin) are one page per business merged: each part is the first rows of its own index
 * range, where `business_id in (…)` would read and sort every entry of every business first.
 */
export async function searchAudit(db: Kysely<Database>, q: AuditQuery): Promise<AuditEntry[]> {
  if (q.businesses === null) return (await pageQuery(db, q, undefined).execute()).map(entryOf);
  const [first, ...others] = q.businesses;
  if (first === undefined) return [];
  if (others.length === 0) return (await pageQuery(db, q, first).execute()).map(entryOf);
  const parts = sql.join(
    q.businesses.map((b) => sql`(${pageQuery(db, q, b)})`),
    sql` union all `,
  );
  const rows =
    await sql<StoredAuditRow>`select * from (${parts}) as page order by at desc, id desc limit ${q.limit}`.execute(db);
  return rows.rows.map(entryOf);
}
