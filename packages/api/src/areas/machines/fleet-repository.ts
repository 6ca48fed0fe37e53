import { type Db, type MachineRecord, toMachineRecord } from './repository.ts';

/* The dashboard's fleet, and the seeded demo lockers that report while the server runs. */

/**
 * The fleet in id order, strictly after the cursor, `limit + 1` of them: machines (not test machines)
 * that are not archived, of businesses that are not archived, each with its business's name.
 */
export async function listFleet(
  db: Db,
  q: { after?: string; limit: number },
): Promise<(MachineRecord & { businessName: string })[]> {
  let query = db
    .selectFrom('machines as m')
    .innerJoin('businesses as b', 'b.id', 'm.business_id')
    .selectAll('m')
    .select('b.name as business_name')
    .where('m.is_test', '=', false)
    .where('m.archived_at', 'is', null)
    .where('b.archived_at', 'is', null);
  if (q.after) query = query.where('m.id', '>', q.after);
  const rows = await query
    .orderBy('m.id')
    .limit(q.limit + 1)
    .execute();
  return rows.map(({ business_name, ...row }) => ({ ...toMachineRecord(row), businessName: business_name }));
}

/**
 * The demo's lockers (marked so by the demo seed, migration 0037) that are in service: what the demo
 * fleet keeps reporting. A machine someone adds or pairs is never a demo locker.
 */
export async function demoLockers(
  db: Db,
): Promise<{ id: string; businessId: string; online: boolean; temperatureUpdated: number | null }[]> {
  const rows = await db
    .selectFrom('machines')
    .select(['id', 'business_id', 'online', 'temperature_updated'])
    .where('demo', '=', true)
    .where('archived_at', 'is', null)
    .where('out_of_order_at', 'is', null)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    businessId: r.business_id,
    online: r.online,
    temperatureUpdated: r.temperature_updated,
  }));
}

/** A heartbeat from each of these machines at `now`: online, last seen now. The rows as they are now. */
export async function heartbeatMachines(db: Db, ids: string[], now: number): Promise<MachineRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('machines')
    .set({ online: true, last_seen: now })
    .where('id', 'in', ids)
    .returningAll()
    .execute();
  return rows.map(toMachineRecord);
}

/** One temperature reading each, as a locker's TemperatureReadings would store it. */
export async function insertDemoReadings(
  db: Db,
  readings: { businessId: string; machineId: string; created: number; value: number }[],
): Promise<void> {
  if (readings.length === 0) return;
  await db
    .insertInto('temperature_readings')
    .values(
      readings.map((r) => ({ business_id: r.businessId, machine_id: r.machineId, created: r.created, value: r.value })),
    )
    .execute();
  for (const r of readings) {
    await db.updateTable('machines').set({ temperature_updated: r.created }).where('id', '=', r.machineId).execute();
  }
}
