import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import type { RpcContext } from '../rpc/context.ts';

/**
 * One audit entry: who (from the context's principal, or `actor` when the caller is not signed in yet),
 * did what (`user.read`, `role.add`, `auth.login.failed`…), to which entity, from where (ip, request
 * id), when (the app clock). `details` holds identifiers and the names of changed fields: never a
 * password, a token, or a hash of either.
 */
export type AuditEntry = {
  action: string;
  entityType: string;
  entityId?: string | null;
  businessId?: string | null;
  /** For calls without a session: the account the action is about (a login, a reset). */
  actor?: { userId: string | null; display: string | null };
  details?: Record<string, unknown>;
};

type AuditCtx = Pick<RpcContext, 'principal' | 'ip' | 'requestId' | 'deps'>;

/** The audit_log row of `entry`, written at `at`. */
function rowOf(ctx: AuditCtx, entry: AuditEntry, at: number) {
  const actor = entry.actor ?? {
    userId: ctx.principal?.userId ?? null,
    display: ctx.principal?.displayName ?? null,
  };
  return {
    id: Bun.randomUUIDv7(),
    at,
    actor_user_id: actor.userId,
    actor_display: actor.display,
    action: entry.action,
    entity_type: entry.entityType,
    entity_id: entry.entityId ?? null,
    business_id: entry.businessId ?? null,
    ip: ctx.ip,
    request_id: ctx.requestId,
    details: JSON.stringify(entry.details ?? {}),
  };
}

/** Appends to the audit log, inside the caller's transaction when given one. */
export async function audit(
  db: Kysely<Database> | Transaction<Database>,
  ctx: AuditCtx,
  entry: AuditEntry,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values(rowOf(ctx, entry, ctx.deps.now()))
    .execute();
}

/**
 * One entry per entity a caller was shown (a page of a list), in one statement: who saw what, with ids
 * and `details` only, never the data itself. Nothing is written for an empty page.
 */
export async function auditReads(
  db: Kysely<Database> | Transaction<Database>,
  ctx: AuditCtx,
  entries: Omit<AuditEntry, 'actor'>[],
): Promise<void> {
  if (entries.length === 0) return;
  const at = ctx.deps.now();
  await db
    .insertInto('audit_log')
    .values(entries.map((entry) => rowOf(ctx, entry, at)))
    .execute();
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
