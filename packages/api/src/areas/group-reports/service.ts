import { AppError, groupComparisonMonths, type MonthlyBusinessStats, type MonthlyTotals } from '@medlocker/core';
import type { Service } from '../../context/method.ts';
import { findGroup } from '../groups/index.ts';
import { emptyMonth, fromMonthIndex, monthIndex, monthlyRows } from '../reports/index.ts';
import { linkedBusinesses } from './repository.ts';

/*
 * Group reports (SPEC §7): a group's chosen businesses side by side, month by month. The
 * access check (contract: group of groupId) lets pharmacy users in on their own groups only; here each
 * chosen business must be linked to that group. One that is not, or does not exist, is the same 404,
 * so the answer never tells another group's business from a missing one.
 */

const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
};

/** A month's figures added up over businesses; the median is null (medians do not add up). */
export function totalOf(year: number, month: number, rows: readonly MonthlyBusinessStats[]): MonthlyTotals {
  const { businessId: _, ...total } = emptyMonth('', year, month);
  const exemptions: Record<string, number> = {};
  const alarms: Record<string, number> = {};
  const channels: Record<string, { sent: number; failed: number }> = {};
  for (const r of rows) {
    total.notificationsSent += r.notificationsSent;
    total.ordersAdded += r.ordersAdded;
    total.ordersLoaded += r.ordersLoaded;
    total.ordersCollected += r.ordersCollected;
    total.ordersExpired += r.ordersExpired;
    total.ordersCancelled += r.ordersCancelled;
    total.ordersRemoved += r.ordersRemoved;
    total.collectedWithinWindow += r.collectedWithinWindow;
    total.totalPickupMinutes += r.totalPickupMinutes;
    total.paidAmount += r.paidAmount;
    total.pinReveals += r.pinReveals;
    total.machineDowntimeMinutes += r.machineDowntimeMinutes;
    total.initialPatientCount += r.initialPatientCount;
    total.patientDelta += r.patientDelta;
    add(exemptions, r.exemptionsByCode);
    add(alarms, r.alarmsByCode);
    for (const [channel, c] of Object.entries(r.messagesByChannel)) {
      const into = channels[channel] ?? { sent: 0, failed: 0 };
      channels[channel] = { sent: into.sent + c.sent, failed: into.failed + c.failed };
    }
  }
  return { ...total, exemptionsByCode: exemptions, alarmsByCode: alarms, messagesByChannel: channels };
}

export const listMonthlyStats: Service<'groupReports/listMonthlyStats'> = async (deps, _actor, input) => {
  if (!(await findGroup(deps.db, input.groupId))) throw new AppError('NOT_FOUND', `No group with id ${input.groupId}`);
  const ids = [...new Set(input.selectedBusinessIds)];
  const linked = await linkedBusinesses(deps.db, input.groupId, ids);
  const missing = ids.find((id) => !linked.has(id));
  if (missing !== undefined) throw new AppError('NOT_FOUND', `No business with id ${missing} in this group`);
  const to = monthIndex(input.endYear, input.endMonth);
  const from = to - groupComparisonMonths + 1;
  const rows = await monthlyRows(deps.db, ids, from, to);
  const months = Array.from({ length: groupComparisonMonths }, (_, i) => fromMonthIndex(from + i));
  const businesses = ids.map((businessId, b) => ({
    businessId,
    name: linked.get(businessId)?.name ?? '',
    stats: rows.slice(b * groupComparisonMonths, (b + 1) * groupComparisonMonths),
  }));
  const totals = months.map(({ year, month }, i) =>
    totalOf(
      year,
      month,
      businesses.map((b) => b.stats[i] as MonthlyBusinessStats),
    ),
  );
  return { months, businesses, totals };
};
