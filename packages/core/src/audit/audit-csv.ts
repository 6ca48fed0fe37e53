import type { AuditEntry } from '../contract/audit.ts';
import { csvText } from '../csv/csv-text.ts';
import { formatDateTime } from '../format/date.ts';
import { auditActionLabel } from './actions.ts';

/** The columns of an audit trail export, as the console's list and the cli's table name them. */
export const auditColumns = [
  'When',
  'Who',
  'User id',
  'What',
  'Action',
  'Entity',
  'Entity id',
  'Business id',
  'Patient id',
  'IP address',
  'Request id',
  'Details',
] as const;

/** One entry's cells: London date and time, the action's words beside its name, details as JSON. */
export function auditEntryCells(e: AuditEntry): string[] {
  return [
    formatDateTime(e.at),
    e.actorDisplay ?? '',
    e.actorUserId ?? '',
    auditActionLabel(e.action),
    e.action,
    e.entityType,
    e.entityId ?? '',
    e.businessId ?? '',
    e.patientId ?? '',
    e.ip ?? '',
    e.requestId ?? '',
    JSON.stringify(e.details),
  ];
}

/** The CSV of audit entries (csvText: quoted, never run as a formula), one line each in the order given. */
export const auditCsv = (entries: readonly AuditEntry[]): string => csvText(auditColumns, entries.map(auditEntryCells));
