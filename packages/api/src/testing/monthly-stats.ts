import type { MonthlyBusinessStats } from '@medlocker/core';
import type { Db } from '../areas/reports/repository.ts';

/**
 * Test fixture (unit tests and the e2e harness's `POST /__stats/month`): stores one business's month as
 * the `stats.monthly` job would, replacing a stored one, so the readers' tests need not run the job.
 * Figures not given are zeros.
 */
export async function storeMonth(
  db: Db,
  row: Pick<MonthlyBusinessStats, 'businessId' | 'year' | 'month'> & Partial<MonthlyBusinessStats>,
): Promise<void> {
  const values = {
    business_id: row.businessId,
    year: row.year,
    month: row.month,
    notifications_sent: row.notificationsSent ?? 0,
    orders_added: row.ordersAdded ?? 0,
    orders_loaded: row.ordersLoaded ?? 0,
    orders_collected: row.ordersCollected ?? 0,
    orders_expired: row.ordersExpired ?? 0,
    orders_cancelled: row.ordersCancelled ?? 0,
    orders_removed: row.ordersRemoved ?? 0,
    collected_within_window: row.collectedWithinWindow ?? 0,
    total_pickup_minutes: row.totalPickupMinutes ?? 0,
    median_pickup_minutes: row.medianPickupMinutes ?? null,
    paid_amount: row.paidAmount ?? 0,
    exemptions_by_code: JSON.stringify(row.exemptionsByCode ?? {}),
    pin_reveals: row.pinReveals ?? 0,
    messages_by_channel: JSON.stringify(row.messagesByChannel ?? {}),
    machine_downtime_minutes: row.machineDowntimeMinutes ?? 0,
    alarms_by_code: JSON.stringify(row.alarmsByCode ?? {}),
    initial_patient_count: row.initialPatientCount ?? 0,
    patient_delta: row.patientDelta ?? 0,
    updated: 1,
    computed_at: 1,
  };
  await db
    .insertInto('monthly_business_stats')
    .values(values)
    .onConflict((oc) => oc.columns(['business_id', 'year', 'month']).doUpdateSet(values))
    .execute();
}
