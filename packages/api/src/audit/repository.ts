import type { Database } from '@medlocker/db';
import type { Insertable, Kysely, Transaction } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

export type AuditRow = Insertable<Database['audit_log']>;

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

/** Audit rows, oldest first, optionally of one action. */
export async function listAudit(db: Kysely<Database>, action?: string): Promise<AuditRecord[]> {
  let q = db.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id');
  if (action) q = q.where('action', '=', action);
  const rows = await q.execute();
  return rows.map((r) => ({
    at: Number(r.at),
    actorUserId: r.actor_user_id,
    actorDisplay: r.actor_display,
    action: r.action,
    entityType: r.entity_type,
    entityId: r.entity_id,
    ip: r.ip,
    requestId: r.request_id,
    details: r.details,
  }));
}
