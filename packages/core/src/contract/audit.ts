import { type } from 'arktype';
import { Timestamp } from '../stamps.ts';
import { TimeInput } from '../validation/general.ts';
import { Id, upTo } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { Paging } from './paging.ts';

/*
 * The audit trail, readable (docs/SECURITY.md, "Audit log"): support reads every entry; a pharmacy
 * Admin the entries of the businesses they administer (never support's entries about no business).
 * Every search and export is itself an entry (`audit.search`, `audit.export`).
 */

/** Pages of the audit trail are 50 long, newest first; `nextToken` is a keyset cursor on (at, id). */
export const auditPageSize = 50;
/** An export holds at most this many entries; filters matching more are refused (never cut short). */
export const auditExportMax = 10_000;

/** One audit entry: who did what to which entity, when and from where. `details` holds ids and field names. */
export const AuditEntry = type({
  id: 'string',
  at: Timestamp,
  actorUserId: 'string | null',
  actorDisplay: 'string | null',
  action: 'string',
  entityType: 'string',
  entityId: 'string | null',
  businessId: 'string | null',
  /** The patient the entry is about (a patient, one of their orders or messages), if any. */
  patientId: 'string | null',
  ip: 'string | null',
  requestId: 'string | null',
  details: type({ '[string]': 'unknown' }),
});
export type AuditEntry = typeof AuditEntry.infer;

/** What a search or an export narrows to; every filter left out matches every entry. */
const AuditFilters = {
  /** Entries about this patient: the patient, their orders and their messages. */
  'patientId?': Id,
  /** Entries by this user (the actor). */
  'userId?': Id,
  'businessId?': Id,
  /** Entries about this order. */
  'orderId?': Id,
  /** One action exactly, e.g. `patient.read`. */
  'action?': upTo(100, type('string > 0')),
  /** From this time on (ms since the epoch, inclusive). */
  'since?': TimeInput,
  /** Before this time (ms since the epoch, exclusive). */
  'until?': TimeInput,
} as const;

export type AuditFilters = {
  patientId?: string;
  userId?: string;
  businessId?: string;
  orderId?: string;
  action?: string;
  since?: number;
  until?: number;
};

export const audit = defineArea({
  search: {
    input: type({ ...AuditFilters, ...Paging }),
    output: type({ entries: AuditEntry.array(), nextToken: 'string | null' }),
    access: staff('filtered'),
    summary:
      'Audit entries newest first, 50 a page, by patient (their orders and messages too), user, business, order, action and time. Support: every entry; pharmacy Admins: their businesses\u2019 entries (others 403). Audited as audit.search.',
  },
  export: {
    input: type(AuditFilters),
    output: type({ csv: 'string', entries: 'number.integer >= 0' }),
    access: staff('filtered'),
    summary:
      'The entries a search finds, as CSV (newest first, at most 10,000; more is 400: narrow the filters). Audited as audit.export.',
  },
});
