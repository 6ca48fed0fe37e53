import type { MonthlyBusinessStats } from '@medlocker/core';
import type { Db } from './repository.ts';

/*
 * The stored monthly rows (monthly_business_stats, migrations 0006 and 0027). The `stats.monthly` job
 * writes them; the business's monthly table, the group comparison and the monthly email read them
 * here. A month with no row reads as zeros (nothing happened, or the job has not reached it).
 */

/** A year and month (1–12) as one number, year * 12 + month - 1, so ranges compare simply. */
export const monthIndex = (year: number, month: number): number => year * 12 + month - 1;
export const fromMonthIndex = (index: number): { year: number; month: number } => ({
  year: Math.floor(index / 12),
  month: (index % 12) + 1,
});

/** A month of a business with nothing in it. */
export const emptyMonth = (businessId: string, year: number, month: number): MonthlyBusinessStats => ({
  businessId,
  year,
  month,
  notificationsSent: 0,
  ordersAdded: 0,
  ordersLoaded: 0,
  ordersCollected: 0,
  ordersExpired: 0,
  ordersCancelled: 0,
  ordersRemoved: 0,
  collectedWithinWindow: 0,
  totalPickupMinutes: 0,
  medianPickupMinutes: null,
  paidAmount: 0,
  exemptionsByCode: {},
  pinReveals: 0,
  messagesByChannel: {},
  machineDowntimeMinutes: 0,
  alarmsByCode: {},
  initialPatientCount: 0,
  patientDelta: 0,
});

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/**
 * The rows of these businesses for the months `from`..`to` (month indexes, inclusive), one per
 * business and month, oldest first; months without a stored row are {@link emptyMonth} but for the
 * patient count, carried over from the month before.
 */
export async function monthlyRows(
  db: Db,
  businessIds: readonly string[],
  from: number,
  to: number,
): Promise<MonthlyBusinessStats[]> {
  if (businessIds.length === 0 || to < from) return [];
  const first = fromMonthIndex(from);
  const last = fromMonthIndex(to);
  const rows = await db
    .selectFrom('monthly_business_stats')
    .selectAll()
    .where('business_id', 'in', businessIds)
    .where((eb) =>
      eb.and([
        eb.or([eb('year', '>', first.year), eb.and([eb('year', '=', first.year), eb('month', '>=', first.month)])]),
        eb.or([eb('year', '<', last.year), eb.and([eb('year', '=', last.year), eb('month', '<=', last.month)])]),
      ]),
    )
    .execute();
  const stored = new Map(rows.map((r) => [`${r.business_id}:${monthIndex(r.year, r.month)}`, r]));
  // A month without a row had no change at all, so its patients are those the month before ended with:
  // the count carries over from the latest stored month (before the range, for its first months).
  const before = await db
    .selectFrom('monthly_business_stats')
    .select(['business_id', 'initial_patient_count', 'patient_delta'])
    .distinctOn('business_id')
    .where('business_id', 'in', businessIds)
    .where((eb) =>
      eb.or([eb('year', '<', first.year), eb.and([eb('year', '=', first.year), eb('month', '<', first.month)])]),
    )
    .orderBy('business_id')
    .orderBy('year', 'desc')
    .orderBy('month', 'desc')
    .execute();
  const endCount = new Map(
    before.map((r) => [r.business_id, Number(r.initial_patient_count) + Number(r.patient_delta)]),
  );
  const out: MonthlyBusinessStats[] = [];
  for (const businessId of businessIds) {
    let patients = endCount.get(businessId) ?? 0;
    for (let m = from; m <= to; m++) {
      const { year, month } = fromMonthIndex(m);
      const r = stored.get(`${businessId}:${m}`);
      if (r !== undefined) patients = Number(r.initial_patient_count) + Number(r.patient_delta);
      out.push(
        r === undefined
          ? { ...emptyMonth(businessId, year, month), initialPatientCount: patients }
          : {
              businessId,
              year,
              month,
              notificationsSent: Number(r.notifications_sent),
              ordersAdded: Number(r.orders_added),
              ordersLoaded: Number(r.orders_loaded),
              ordersCollected: Number(r.orders_collected),
              ordersExpired: Number(r.orders_expired),
              ordersCancelled: Number(r.orders_cancelled),
              ordersRemoved: Number(r.orders_removed),
              collectedWithinWindow: Number(r.collected_within_window),
              totalPickupMinutes: Number(r.total_pickup_minutes),
              medianPickupMinutes: r.median_pickup_minutes === null ? null : Number(r.median_pickup_minutes),
              paidAmount: Number(r.paid_amount),
              exemptionsByCode: json(r.exemptions_by_code),
              pinReveals: Number(r.pin_reveals),
              messagesByChannel: json(r.messages_by_channel),
              machineDowntimeMinutes: Number(r.machine_downtime_minutes),
              alarmsByCode: json(r.alarms_by_code),
              initialPatientCount: Number(r.initial_patient_count),
              patientDelta: Number(r.patient_delta),
            },
      );
    }
  }
  return out;
}

/** When a business was added (ms), or undefined when there is no such business. */
export async function businessCreated(db: Db, businessId: string): Promise<number | undefined> {
  const row = await db.selectFrom('businesses').select('created').where('id', '=', businessId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.created);
}
