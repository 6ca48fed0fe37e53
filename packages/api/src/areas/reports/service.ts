import {
  AppError,
  collectionRecordsMaxAll,
  collectionRecordsPageSize,
  londonDayStart,
  monthlyStatsPageSize,
  toIsoDate,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Service } from '../../context/method.ts';
import { decodeCursor, decodeTimeIdCursor, encodeCursor, pageOf } from '../../lists/paging.ts';
import { requireBusiness } from '../business-settings/index.ts';
import { monthOf } from './monthly-compute-repository.ts';
import { monthError, type OnMonthError, rebuildMonthlyStats as rebuildMonths } from './monthly-job-repository.ts';
import { businessCreated, monthIndex, monthlyRows } from './monthly-repository.ts';
import { businessIdsAfter, listCollectionRows } from './repository.ts';

/*
 * Reports (SPEC §7). Days are London calendar days: a range is from the London midnight
 * that starts `startDate` to the one that ends `endDate`, whatever the clocks did in between.
 */

/**
 * A record names a patient and what they collected. A page shown is one entry with the orders' ids; an
 * export (up to 10,000) one entry with its range, filter and count: the same query gives its records.
 */
const auditRecords = (
  deps: AppDeps,
  actor: StaffActor,
  input: In<'reports/listCollectionStats'>,
  ids: string[],
  via: 'list' | 'export',
): Promise<void> | undefined => {
  if (ids.length === 0) return;
  return audit(deps.db, deps, actor, {
    action: `report.collectionRecords.${via}`,
    entityType: 'order',
    businessId: input.businessId,
    details: {
      startDate: input.startDate,
      endDate: input.endDate,
      filter: input.filterType ?? 'All',
      ...(via === 'export' ? { count: ids.length } : { ids }),
    },
  });
};

export const listCollectionStats: Service<'reports/listCollectionStats'> = async (deps, actor, input) => {
  if (input.endDate < input.startDate) {
    throw new AppError('VALIDATION', 'The end date is before the start date', [
      { path: 'endDate', id: 'INVALID_DATE_RANGE', message: 'End date must not be before start date' },
    ]);
  }
  const after = input.getAll ? undefined : decodeTimeIdCursor(input.nextToken);
  await requireBusiness(deps.db, input.businessId);
  const query = {
    businessId: input.businessId,
    from: londonDayStart(input.startDate),
    to: londonDayStart(input.endDate, 1),
    filter: input.filterType ?? 'All',
  };
  if (input.getAll) {
    // One more than the cap tells a range too big for one answer: refused, never silently cut short.
    const rows = await listCollectionRows(deps.db, { ...query, limit: collectionRecordsMaxAll + 1 });
    if (rows.length > collectionRecordsMaxAll) {
      throw new AppError(
        'VALIDATION',
        `More than ${collectionRecordsMaxAll} collection records in this range: choose a shorter one`,
        [{ path: 'startDate', id: 'TOO_MANY_RECORDS', message: 'Too many records: choose a shorter date range' }],
      );
    }
    await auditRecords(
      deps,
      actor,
      input,
      rows.map((r) => r.id),
      'export',
    );
    return { records: rows, nextToken: null };
  }
  const rows = await listCollectionRows(deps.db, {
    ...query,
    ...(after ? { after } : {}),
    limit: collectionRecordsPageSize + 1,
  });
  const page = pageOf(rows, collectionRecordsPageSize, (r) => [r.collected ?? 0, r.id]);
  await auditRecords(
    deps,
    actor,
    input,
    page.items.map((r) => r.id),
    'list',
  );
  return { records: page.items, nextToken: page.nextToken };
};

/** How long one call of rebuildMonthlyStats over every business works before answering a nextToken. */
export const REBUILD_CALL_MS = 10_000;

/** Support: recompute the stored monthly figures (`medlocker stats rebuild`). */
export const rebuildMonthlyStats: Service<'reports/rebuildMonthlyStats'> = async (deps, _actor, input) => {
  const now = deps.now();
  let from: number | undefined;
  if (input.from !== undefined) {
    from = monthIndex(Number(input.from.slice(0, 4)), Number(input.from.slice(5, 7)));
    if (from > monthOf(now)) {
      throw new AppError('VALIDATION', 'The first month to rebuild is in the future', [
        { path: 'from', id: 'INVALID_DATE', message: 'Month must not be in the future' },
      ]);
    }
  }
  // A month that cannot be recomputed is logged; the rebuild carries on with the rest.
  const onError: OnMonthError = (pair, error) =>
    deps.logger.error('monthly stats rebuild: a month could not be recomputed', monthError(pair, error));
  if (input.businessId !== undefined) {
    await requireBusiness(deps.db, input.businessId);
    const { months, changed } = await rebuildMonths(deps.db, [input.businessId], from, now, onError);
    deps.logger.info('monthly stats rebuilt', { businessId: input.businessId, months, changed });
    return { businesses: 1, months, changed, nextToken: null };
  }
  // Every business, in id order, one after another until the call has worked REBUILD_CALL_MS.
  const started = performance.now();
  const ids = await businessIdsAfter(deps.db, input.nextToken);
  const total = { businesses: 0, months: 0, changed: 0 };
  let last: string | null = null;
  for (const id of ids) {
    const { months, changed } = await rebuildMonths(deps.db, [id], from, now, onError);
    total.businesses++;
    total.months += months;
    total.changed += changed;
    last = id;
    if (performance.now() - started > REBUILD_CALL_MS) break;
  }
  const nextToken = last !== null && last !== ids[ids.length - 1] ? last : null;
  deps.logger.info('monthly stats rebuilt', { ...total, more: nextToken !== null });
  return { ...total, nextToken };
};

/** The London calendar month of a YYYY-MM-DD day as a month index. */
export const monthOfDay = (day: string): number => monthIndex(Number(day.slice(0, 4)), Number(day.slice(5, 7)));

/** A monthly page token: the index of the newest month of the page it asks for. */
function decodeMonthToken(token: string | null | undefined): number | undefined {
  const key = decodeCursor(token, 1);
  if (key === undefined) return undefined;
  const month = key[0];
  if (typeof month === 'number' && Number.isSafeInteger(month) && month >= 0 && month < monthIndex(10_000, 1)) {
    return month;
  }
  throw new AppError('VALIDATION', 'Invalid nextToken', [
    { path: 'nextToken', id: 'INVALID_FORMAT', message: 'Value is not correctly formatted' },
  ]);
}

/**
 * A business's monthly figures, a year a page, newest month first. The newest month is lastDate's
 * (this month when absent; a later one is this month too: nothing has happened there yet), and no
 * page reaches before the month the business was added, so paging back stops there.
 */
export const listBusinessStats: Service<'reports/listBusinessStats'> = async (deps, _actor, input) => {
  const token = decodeMonthToken(input.nextToken);
  const created = await businessCreated(deps.db, input.businessId);
  if (created === undefined) throw new AppError('NOT_FOUND', `Business ${input.businessId} not found`);
  const thisMonth = monthOfDay(toIsoDate(deps.now()));
  const first = monthOfDay(toIsoDate(created));
  const last = Math.min(token ?? (input.lastDate ? monthOfDay(input.lastDate) : thisMonth), thisMonth);
  const from = Math.max(first, last - monthlyStatsPageSize + 1);
  if (last < first) return { stats: [], nextToken: null };
  const rows = await monthlyRows(deps.db, [input.businessId], from, last);
  return { stats: rows.reverse(), nextToken: from > first ? encodeCursor([from - 1]) : null };
};
