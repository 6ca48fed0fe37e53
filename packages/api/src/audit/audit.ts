import type { Database } from '@medlocker/db';
import { type Kysely, sql, type Transaction } from 'kysely';
import { type Actor, actorIdentity } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { type AuditRow, insertAuditRows } from './repository.ts';

export { type AuditRecord, listAudit, searchAudit } from './repository.ts';

/**
 * One audit entry: who (the actor, or `who` when the caller is not signed in yet), did what
 * (`user.read`, `role.add`, `auth.login.failed`…), to which entity, from where (the actor's origin: ip,
 * request id), when (the app clock). `details` holds identifiers and the names of changed fields: never
 * a password, a token, or a hash of either.
 */
export type AuditEntry = {
  action: string;
  entityType: string;
  entityId?: string | null;
  businessId?: string | null;
  /**
   * The patient the entry is about, for "who looked at this patient". Left out: a patient entry's own id,
   * an order entry's order's patient (looked up as the row is written), else none.
   */
  patientId?: string | null;
  /** For calls without a session: the account the action is about (a login, a reset). */
  who?: { userId: string | null; display: string | null };
  details?: Record<string, unknown>;
};

type Db = Kysely<Database> | Transaction<Database>;

/** The patient an entry is about: given, the entity itself, or an order's patient (read by the insert). */
function patientIdOf(entry: AuditEntry): AuditRow['patient_id'] {
  if (entry.patientId !== undefined) return entry.patientId;
  if (!entry.entityId) return null;
  if (entry.entityType === 'patient') return entry.entityId;
  if (entry.entityType === 'order')
    return sql<string | null>`(select patient_id from orders where id = ${entry.entityId})`;
  return null;
}

/** The audit_log row of `entry`, written at `at`. */
function rowOf(actor: Actor, entry: AuditEntry, at: number): AuditRow {
  const who = entry.who ?? actorIdentity(actor);
  return {
    id: Bun.randomUUIDv7(),
    at,
    actor_user_id: who.userId,
    actor_display: who.display,
    action: entry.action,
    entity_type: entry.entityType,
    entity_id: entry.entityId ?? null,
    business_id: entry.businessId ?? null,
    patient_id: patientIdOf(entry),
    ip: actor.origin.ip,
    request_id: actor.origin.requestId,
    details: JSON.stringify(entry.details ?? {}),
  };
}

/** Appends to the audit log, inside the caller's transaction when given one. */
export async function audit(db: Db, deps: AppDeps, actor: Actor, entry: AuditEntry): Promise<void> {
  await insertAuditRows(db, [rowOf(actor, entry, deps.now())]);
}

/**
 * The audit function of one kind of entity of a business, `auditOrder = entityAudit('order')`:
 * `auditOrder(tx, deps, actor, 'order.create', order, { via })` appends the entry about that order, in
 * the order's business (with `who` for a caller who is not signed in).
 */
export const entityAudit =
  (entityType: string) =>
  (
    db: Db,
    deps: AppDeps,
    actor: Actor,
    action: string,
    entity: { id: string; businessId: string },
    details?: Record<string, unknown>,
    who?: AuditEntry['who'],
  ) =>
    audit(db, deps, actor, {
      action,
      entityType,
      entityId: entity.id,
      businessId: entity.businessId,
      ...(details ? { details } : {}),
      ...(who ? { who } : {}),
    });

/**
 * One entry per entity a caller was shown (a page of a list), in one statement: who saw what, with ids
 * and `details` only, never the data itself. Nothing is written for an empty page.
 */
export async function auditReads(
  db: Db,
  deps: AppDeps,
  actor: Actor,
  entries: Omit<AuditEntry, 'who'>[],
): Promise<void> {
  const at = deps.now();
  await insertAuditRows(
    db,
    entries.map((entry) => rowOf(actor, entry, at)),
  );
}

/**
 * One entry for a page of a list the caller was shown (`patient.list`, `order.list`…): the ids of its
 * rows in `details.ids`, never the data. A record opened (`patient.read`, `order.read`) keeps its own
 * entry per entity; a page of a list is one entry (docs/decisions/audit.md, "What reads are audited").
 * Nothing is written for an empty page.
 */
export async function auditListPage(
  db: Db,
  deps: AppDeps,
  actor: Actor,
  entry: Omit<AuditEntry, 'who' | 'entityId'> & { ids: readonly string[] },
): Promise<void> {
  const { ids, details, ...rest } = entry;
  if (ids.length === 0) return;
  await audit(db, deps, actor, { ...rest, details: { ...details, ids } });
}
