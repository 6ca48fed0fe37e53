import {
  type AuditEntry,
  type AuditFilters,
  auditActionLabel,
  auditPageSize,
  formatDateTime,
  isIsoDate,
  londonDayStart,
} from '@medlocker/core';
import type { Command } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import { type CliIo, signedIn, UsageError } from '../context.ts';
import { collectPages, pagingOptions, printPage } from '../paging.ts';

const columns = [
  { header: 'When', value: (e: AuditEntry) => formatDateTime(e.at) },
  { header: 'Who', value: (e: AuditEntry) => e.actorDisplay ?? 'unknown' },
  { header: 'What', value: (e: AuditEntry) => auditActionLabel(e.action) },
  { header: 'About', value: (e: AuditEntry) => (e.entityId ? `${e.entityType} ${e.entityId}` : e.entityType) },
  { header: 'Patient', value: (e: AuditEntry) => e.patientId ?? '' },
  { header: 'Where', value: (e: AuditEntry) => e.ip ?? '' },
];

/**
 * A time as the options give it: a London day (YYYY-MM-DD: its start, or with `end` the start of the
 * next day, so `--until 2026-11-30` takes in that whole day) or an ISO date and time.
 */
function timeOf(option: string, text: string | undefined, end: boolean): number | undefined {
  if (text === undefined) return undefined;
  if (isIsoDate(text)) return londonDayStart(text, end ? 1 : 0);
  const at = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at) || at < 0) throw new UsageError(`${option} takes a day (YYYY-MM-DD) or an ISO date and time`);
  return at;
}

type AuditOptions = {
  patient?: string;
  user?: string;
  business?: string;
  order?: string;
  action?: string;
  since?: string;
  until?: string;
  csv?: boolean;
  all?: boolean;
  nextToken?: string;
};

/**
 * `medlocker audit`: the audit trail, newest first (50 a page; --all for every page), found by patient
 * (their orders and messages too), user, business, order, action and time; `--csv` prints what the
 * filters find as CSV (at most 10,000 entries), `--json` the entries. Every search is itself audited.
 */
export function auditCommand(program: Command, io: CliIo): void {
  pagingOptions(
    program
      .command('audit')
      .description(`Search the audit trail, newest first (${auditPageSize} a page; --all for every page)`)
      .option('--patient <id>', 'entries about this patient, their orders and messages')
      .option('--user <id>', 'entries by this user')
      .option('--business <id|name>', 'entries of this business: its id or its name')
      .option('--order <id>', 'entries about this order')
      .option('--action <action>', 'one action, e.g. patient.read')
      .option('--since <time>', 'from this day (YYYY-MM-DD, London) or ISO date and time')
      .option('--until <time>', 'up to this day, inclusive (YYYY-MM-DD), or before this ISO date and time')
      .option('--csv', 'print what the filters find as CSV (at most 10,000 entries)'),
  ).action(async (options: AuditOptions, command: Command) => {
    const { ctx, client } = await signedIn(io, command);
    const since = timeOf('--since', options.since, false);
    const until = timeOf('--until', options.until, true);
    const filters: AuditFilters = {
      ...(options.patient ? { patientId: options.patient } : {}),
      ...(options.user ? { userId: options.user } : {}),
      ...(options.business ? { businessId: await businessIdOf(client, options.business) } : {}),
      ...(options.order ? { orderId: options.order } : {}),
      ...(options.action ? { action: options.action } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(until !== undefined ? { until } : {}),
    };
    if (options.csv) {
      io.stdout((await client.call('audit', 'export', filters)).csv);
      return;
    }
    const page = await collectPages<AuditEntry>(async (token) => {
      const found = await client.call('audit', 'search', { ...filters, nextToken: token });
      return { items: found.entries, nextToken: found.nextToken };
    }, options);
    printPage(ctx, 'entries', page, columns, { empty: 'No audit entries found', more: 'entries' });
  });
}
