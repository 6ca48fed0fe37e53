import type { Machine, MachineEvent, MachineStatus } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Insertable, type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import type { Cursor } from '../../lists/paging.ts';

export type Db = Kysely<Database> | Transaction<Database>;
export type MachineRow = Selectable<Database['machines']>;

/** A machine as core describes it; `readings` are the recent ones when the caller fetched them. */
export function toMachine(row: MachineRow, readings: { created: number; value: number }[] = []): Machine {
  return {
    id: row.id,
    businessId: row.business_id,
    name: row.name,
    numberOfSlots: row.number_of_slots,
    paymentsEnabled: row.payments_enabled,
    archived:
      row.archived_at === null
        ? null
        : { at: row.archived_at, userId: row.archived_by_id, userDisplayName: row.archived_by_display },
    outOfOrderStatus:
      row.out_of_order_at === null
        ? null
        : {
            at: row.out_of_order_at,
            userId: row.out_of_order_by_id ?? '',
            userDisplayName: row.out_of_order_by_display ?? '',
          },
    temperatureStatus:
      row.temperature_average === null || row.temperature_updated === null
        ? null
        : {
            average: row.temperature_average,
            lastExcursionAt: row.temperature_last_excursion_at,
            updated: row.temperature_updated,
            readings,
          },
    created: row.created,
    updated: row.updated,
  };
}

export const findMachine = (db: Db, id: string): Promise<MachineRow | undefined> =>
  db.selectFrom('machines').selectAll().where('id', '=', id).executeTakeFirst();

/** The row locked for an update in a transaction, so two staff toggling at once take turns. */
export const lockMachine = (db: Db, id: string): Promise<MachineRow | undefined> =>
  db.selectFrom('machines').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

/** True when another machine of the business has this name, whatever the case. */
export async function nameTaken(db: Db, businessId: string, name: string, exceptId?: string): Promise<boolean> {
  let q = db
    .selectFrom('machines')
    .select('id')
    .where('business_id', '=', businessId)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/**
 * The temperature chart covers a whole window in at most this many buckets. A window with more
 * readings than twice this gives each bucket's lowest and highest reading, so 3 hours answer at most
 * 1,440 points (15-second buckets) however often the locker reads, and a reading out of the band is
 * never dropped.
 */
export const chartBuckets = 720;

/**
 * Readings of a machine in (`from`, `to`], oldest first: all of them up to twice `buckets`, otherwise
 * each bucket's lowest and highest, each at its own time (on a tie the earliest lowest and the latest
 * highest, so a steady stretch keeps its ends).
 */
export async function chartReadings(
  db: Db,
  q: { businessId: string; machineId: string; from: number; to: number; buckets?: number },
): Promise<{ created: number; value: number }[]> {
  const buckets = q.buckets ?? chartBuckets;
  const bucketMs = Math.max(1, Math.ceil((q.to - q.from) / buckets));
  const bucket = sql`(created - ${q.from}::bigint - 1) / ${bucketMs}::bigint`;
  const ranked = db
    .selectFrom('temperature_readings')
    .select(['created', 'value'])
    .select(sql<number>`count(*) over ()`.as('total'))
    .select(sql<number>`row_number() over (partition by ${bucket} order by value, created)`.as('low'))
    .select(sql<number>`row_number() over (partition by ${bucket} order by value desc, created desc)`.as('high'))
    .where('business_id', '=', q.businessId)
    .where('machine_id', '=', q.machineId)
    .where('created', '>', q.from)
    .where('created', '<=', q.to)
    .as('r');
  return db
    .selectFrom(ranked)
    .select(['created', 'value'])
    .where((eb) => eb.or([eb('total', '<=', 2 * buckets), eb('low', '=', 1), eb('high', '=', 1)]))
    .orderBy('created')
    .execute();
}

/** A business's machines by (lower(name), id), strictly after the cursor, `limit + 1` of them. */
export async function listMachineRows(
  db: Db,
  q: { businessId: string; archived: boolean; test: boolean; filter?: string; after?: Cursor; limit: number },
): Promise<{ row: MachineRow; key: Cursor }[]> {
  let query = db
    .selectFrom('machines')
    .selectAll()
    .select((eb) => eb.fn<string>('lower', ['name']).as('name_key'))
    .where('business_id', '=', q.businessId)
    .where('is_test', '=', q.test)
    .where('archived_at', q.archived ? 'is not' : 'is', null);
  const filter = q.filter?.trim();
  if (filter) query = query.where(contains('machines', filter));
  if (q.after) {
    const [name, id] = q.after as [string, string];
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['name']), '>', name),
        eb.and([eb(eb.fn('lower', ['name']), '=', name), eb('id', '>', id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy((eb) => eb.fn('lower', ['name']))
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
  return rows.map(({ name_key, ...row }) => ({ row, key: [name_key, row.id] }));
}

export function toMachineEvent(row: Selectable<Database['machine_events']>): MachineEvent {
  return {
    id: row.id,
    businessId: row.business_id,
    machineId: row.machine_id,
    bagId: row.bag_id,
    barcode: row.barcode,
    code: row.code,
    level: row.level,
    message: row.message,
    data: (row.data ?? null) as Record<string, unknown> | null,
    created: row.created,
  };
}

/** Events of a machine newest first (by time-sortable id), strictly before the cursor. */
export async function listEventRows(
  db: Db,
  q: { businessId: string; machineId: string; level?: string; code?: string; before?: string; limit: number },
) {
  let query = db
    .selectFrom('machine_events')
    .selectAll()
    .where('business_id', '=', q.businessId)
    .where('machine_id', '=', q.machineId);
  if (q.level) query = query.where('level', '=', q.level as MachineEvent['level']);
  if (q.code) query = query.where('code', '=', q.code);
  if (q.before) query = query.where('id', '<', q.before);
  return query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
}

export async function listStatusRows(
  db: Db,
  q: { businessId: string; machineId: string; before?: string; limit: number },
): Promise<MachineStatus[]> {
  let query = db
    .selectFrom('machine_status')
    .selectAll()
    .where('business_id', '=', q.businessId)
    .where('machine_id', '=', q.machineId);
  if (q.before) query = query.where('id', '<', q.before);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    businessId: r.business_id,
    machineId: r.machine_id,
    created: r.created,
    observations: (r.observations ?? {}) as Record<string, unknown>,
  }));
}

/** Revokes every live credential of a machine (re-pairing, archiving). */
export async function revokeCredentials(db: Db, machineId: string, now: number): Promise<number> {
  const rows = await db
    .updateTable('machine_credentials')
    .set({ revoked_at: now, updated: now })
    .where('machine_id', '=', machineId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

export type FleetRow = MachineRow & { business_name: string };

/**
 * The fleet in id order, strictly after the cursor, `limit + 1` of them: machines (not test machines)
 * that are not archived, of businesses that are not archived.
 */
export async function listFleetRows(db: Db, q: { after?: string; limit: number }): Promise<FleetRow[]> {
  let query = db
    .selectFrom('machines as m')
    .innerJoin('businesses as b', 'b.id', 'm.business_id')
    .selectAll('m')
    .select('b.name as business_name')
    .where('m.is_test', '=', false)
    .where('m.archived_at', 'is', null)
    .where('b.archived_at', 'is', null);
  if (q.after) query = query.where('m.id', '>', q.after);
  return query
    .orderBy('m.id')
    .limit(q.limit + 1)
    .execute();
}

/**
 * Alarms of these machines raised since a time (codes or levels that make an alarm), newest first, at
 * most `perMachine` a machine. One lateral probe of machine_events_machine_created_idx per machine,
 * so the cost follows the day's events of the page's machines, not their whole history.
 */
export async function listAlarmRows(
  db: Db,
  q: { machineIds: string[]; since: number; codes: readonly string[]; levels: readonly string[]; perMachine: number },
) {
  if (q.machineIds.length === 0) return [];
  return db
    .selectFrom('machines as m')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('machine_events as e')
          .selectAll('e')
          .whereRef('e.business_id', '=', 'm.business_id')
          .whereRef('e.machine_id', '=', 'm.id')
          .where('e.created', '>=', q.since)
          .where((w) =>
            w.or([w('e.code', 'in', [...q.codes]), w('e.level', 'in', [...q.levels] as MachineEvent['level'][])]),
          )
          .orderBy('e.created', 'desc')
          .orderBy('e.id', 'desc')
          .limit(q.perMachine)
          .as('a'),
      (join) => join.onTrue(),
    )
    .selectAll('a')
    .where('m.id', 'in', q.machineIds)
    .orderBy('a.created', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
}

/**
 * The demo's lockers (seeded, never paired: no credentials ever issued, yet heard from) that are in
 * service: what the demo fleet keeps reporting. A machine someone adds has never been heard from and a
 * real locker has credentials, so neither is ever reported for.
 */
export function demoLockerRows(db: Db) {
  return db
    .selectFrom('machines')
    .select(['id', 'business_id', 'online', 'temperature_updated'])
    .where('is_test', '=', false)
    .where('archived_at', 'is', null)
    .where('out_of_order_at', 'is', null)
    .where('last_seen', 'is not', null)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('machine_credentials').select('id').whereRef('machine_id', '=', 'machines.id'))),
    )
    .execute();
}

/** A heartbeat from each of these machines at `now`: online, last seen now. The rows as they are now. */
export function heartbeatMachines(db: Db, ids: string[], now: number): Promise<MachineRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .updateTable('machines')
    .set({ online: true, last_seen: now })
    .where('id', 'in', ids)
    .returningAll()
    .execute();
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

/** The business a machine page needs: its name and whether it is archived. */
export const findBusinessSummary = (db: Db, id: string) =>
  db.selectFrom('businesses').select(['id', 'name', 'archived_at']).where('id', '=', id).executeTakeFirst();

/** A new machine, not archived, not out of order, never seen. */
export async function insertMachineRow(
  db: Db,
  m: { businessId: string; name: string; numberOfSlots: number; paymentsEnabled: boolean; test: boolean; now: number },
): Promise<MachineRow> {
  return db
    .insertInto('machines')
    .values({
      id: Bun.randomUUIDv7(),
      business_id: m.businessId,
      name: m.name,
      number_of_slots: m.numberOfSlots,
      payments_enabled: m.paymentsEnabled,
      is_test: m.test,
      archived_at: null,
      archived_by_id: null,
      archived_by_display: null,
      out_of_order_at: null,
      out_of_order_by_id: null,
      out_of_order_by_display: null,
      temperature_average: null,
      temperature_last_excursion_at: null,
      temperature_updated: null,
      last_seen: null,
      created: m.now,
      updated: m.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes a machine's columns and returns the row as it now is. */
export const updateMachineRow = (db: Db, id: string, patch: Updateable<Database['machines']>): Promise<MachineRow> =>
  db.updateTable('machines').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/** Whether a machine holds live (unrevoked) credentials: it is paired. */
export async function isPaired(db: Db, machineId: string): Promise<boolean> {
  const row = await db
    .selectFrom('machine_credentials')
    .select('id')
    .where('machine_id', '=', machineId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Stores a machine event as it is. */
export const insertMachineEventRow = (db: Db, row: Insertable<Database['machine_events']>) =>
  db.insertInto('machine_events').values(row).returningAll().executeTakeFirstOrThrow();

/** What an alarm message needs of the machine's business: its name and who hears about alarms. */
export const findAlarmRecipients = (db: Db, businessId: string) =>
  db
    .selectFrom('businesses')
    .select(['name', 'keyholders_mobile_numbers', 'notification_emails'])
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow();

/** The support-edited wording of an alarm's message, if any (else core's default). */
export async function findAlarmTemplateBody(db: Db, code: string): Promise<string | undefined> {
  const row = await db.selectFrom('alarm_message_templates').select('body').where('code', '=', code).executeTakeFirst();
  return row?.body;
}

/** Stores a staff notification as it is. */
export const insertNotificationRow = (db: Db, row: Insertable<Database['notifications']>) =>
  db.insertInto('notifications').values(row).returningAll().executeTakeFirstOrThrow();
