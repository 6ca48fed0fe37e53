import {
  AppError,
  type AuditFilters,
  auditCsv,
  auditExportMax,
  auditPageSize,
  maxTimestamp,
  validationMessage,
} from '@medlocker/core';
import { audit, searchAudit } from '../../audit/audit.ts';
import type { AuditQuery } from '../../audit/repository.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { decodeTimeIdCursor, pageOf } from '../../lists/paging.ts';

/**
 * The businesses whose entries the caller reads: support every entry (null), or the one business it
 * names; a pharmacy user the businesses they hold Admin on (docs/decisions/auth.md: another business is
 * 404, a business they reach without Admin 403), never an entry about no business.
 */
function readableBusinesses(actor: StaffActor, businessId: string | undefined): string[] | null {
  if (actor.kind === 'support') return businessId === undefined ? null : [businessId];
  const admin = [...actor.businesses].filter(([, reach]) => reach.admin).map(([id]) => id);
  if (businessId === undefined) {
    if (admin.length === 0) throw new AppError('FORBIDDEN', 'Only a business\u2019s Admins read its audit trail');
    return admin;
  }
  const reach = actor.businesses.get(businessId);
  if (!reach) throw new AppError('NOT_FOUND', `Business ${businessId} not found`);
  if (!reach.admin) throw new AppError('FORBIDDEN', 'Only a business\u2019s Admins read its audit trail');
  return [businessId];
}

/** The filters as the repository takes them; `until` at or before `since` is a 400 naming `until`. */
function queryOf(actor: StaffActor, input: AuditFilters, limit: number): AuditQuery {
  if (input.since !== undefined && input.until !== undefined && input.until <= input.since) {
    throw new AppError('VALIDATION', 'until must be after since', [
      { path: 'until', id: 'INVALID_RANGE', message: validationMessage.range(input.since + 1, maxTimestamp) },
    ]);
  }
  const { businessId, ...filters } = input;
  return { ...filters, businesses: readableBusinesses(actor, businessId), limit };
}

/** The filters a search used, for its own audit entry: ids and times only. */
const filtersOf = ({ patientId, userId, businessId, orderId, action, since, until }: AuditFilters) =>
  Object.fromEntries(
    Object.entries({ patientId, userId, businessId, orderId, action, since, until }).filter(([, v]) => v !== undefined),
  );

/**
 * Reading the trail is itself an entry. It names the business searched (so that business's Admins see
 * who read its trail) but never a patient: "who looked at this patient" lists who opened their record,
 * not who read the list of those who did.
 */
const auditRead = (deps: AppDeps, actor: StaffActor, action: string, input: AuditFilters, shown: number) =>
  audit(deps.db, deps, actor, {
    action,
    entityType: 'audit',
    businessId: input.businessId ?? null,
    patientId: null,
    details: { filters: filtersOf(input), shown },
  });

export const search: Service<'audit/search'> = async (deps, actor, input) => {
  const after = decodeTimeIdCursor(input.nextToken);
  const { nextToken: _token, ...filters } = input;
  const query = queryOf(actor, filters, auditPageSize + 1);
  const rows = await searchAudit(deps.db, { ...query, ...(after ? { after } : {}) });
  const page = pageOf(rows, auditPageSize, (r) => [r.at, r.id]);
  await auditRead(deps, actor, 'audit.search', filters, page.items.length);
  return { entries: page.items, nextToken: page.nextToken };
};

export const exportCsv: Service<'audit/export'> = async (deps, actor, input) => {
  // One more than the cap tells filters matching too many: refused, never silently cut short.
  const rows = await searchAudit(deps.db, queryOf(actor, input, auditExportMax + 1));
  if (rows.length > auditExportMax) {
    throw new AppError('VALIDATION', `More than ${auditExportMax} audit entries match: narrow the filters`, [
      { path: 'since', id: 'TOO_MANY_RECORDS', message: 'Too many records: choose a shorter date range' },
    ]);
  }
  await auditRead(deps, actor, 'audit.export', input, rows.length);
  return { csv: auditCsv(rows), entries: rows.length };
};
