import type { ArchivedStamp, Machine, MachineStatus } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { contains } from '../../lists/contains-repository.ts';
import { newestFirst } from '../../lists/newest-first-repository.ts';
import type { Cursor } from '../../lists/paging.ts';

export type Db = Kysely<Database> | Transaction<Database>;
type MachineRow = Selectable<Database['machines']>;

/**
 * A machine as the api keeps it: core's Machine (without readings: the chart fetches them), whether it
 * is a QA test machine, and whether its locker is connected (online) and when it was last heard from.
 */
export type MachineRecord = { machine: Machine; test: boolean; online: boolean; lastSeen: number | null };

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

export const toMachineRecord = (row: MachineRow): MachineRecord => ({
  machine: toMachine(row),
  test: row.is_test,
  online: row.online,
  lastSeen: row.last_seen,
});

export async function findMachine(db: Db, id: string): Promise<MachineRecord | undefined> {
  const row = await db.selectFrom('machines').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toMachineRecord(row);
}

/** The machine locked for an update in a transaction, so two staff toggling at once take turns. */
export async function lockMachine(db: Db, id: string): Promise<MachineRecord | undefined> {
  const row = await db.selectFrom('machines').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row && toMachineRecord(row);
}

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
export async function listMachinesByName(
  db: Db,
  q: { businessId: string; archived: boolean; test: boolean; filter?: string; after?: Cursor; limit: number },
): Promise<{ record: MachineRecord; key: Cursor }[]> {
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
  return rows.map(({ name_key, ...row }) => ({ record: toMachineRecord(row), key: [name_key, row.id] }));
}

export async function listMachineStatuses(
  db: Db,
  q: { businessId: string; machineId: string; before?: string; limit: number },
): Promise<MachineStatus[]> {
  const query = db
    .selectFrom('machine_status')
    .selectAll()
    .where('business_id', '=', q.businessId)
    .where('machine_id', '=', q.machineId);
  return (await newestFirst(query, q)).map((r) => ({
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

/** A new machine, not archived, not out of order, never seen. */
export async function insertNewMachine(
  db: Db,
  m: {
    businessId: string;
    name: string;
    numberOfSlots: number;
    paymentsEnabled: boolean;
    test: boolean;
    /** The user adding it: a test machine's alarms go to them alone. */
    createdBy: string | null;
    now: number;
  },
): Promise<MachineRecord> {
  const row = await db
    .insertInto('machines')
    .values({
      id: Bun.randomUUIDv7(),
      business_id: m.businessId,
      name: m.name,
      number_of_slots: m.numberOfSlots,
      payments_enabled: m.paymentsEnabled,
      is_test: m.test,
      created_by: m.createdBy,
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
  return toMachineRecord(row);
}

/** Who put a machine out of order, and when. */
type OutOfOrderStamp = NonNullable<Machine['outOfOrderStatus']>;

/** A change to a machine; a field left out stays as it is. */
export type MachinePatch = {
  name?: string;
  numberOfSlots?: number;
  paymentsEnabled?: boolean;
  archived?: ArchivedStamp | null;
  outOfOrder?: OutOfOrderStamp | null;
  online?: boolean;
  updated: number;
};

/** Changes a machine and answers it as it now is. */
export async function patchMachine(db: Db, id: string, patch: MachinePatch): Promise<MachineRecord> {
  const { name, numberOfSlots, paymentsEnabled, archived, outOfOrder, online, updated } = patch;
  const row = await db
    .updateTable('machines')
    .set({
      ...(name !== undefined ? { name } : {}),
      ...(numberOfSlots !== undefined ? { number_of_slots: numberOfSlots } : {}),
      ...(paymentsEnabled !== undefined ? { payments_enabled: paymentsEnabled } : {}),
      ...(archived !== undefined
        ? {
            archived_at: archived?.at ?? null,
            archived_by_id: archived?.userId ?? null,
            archived_by_display: archived?.userDisplayName ?? null,
          }
        : {}),
      ...(outOfOrder !== undefined
        ? {
            out_of_order_at: outOfOrder?.at ?? null,
            out_of_order_by_id: outOfOrder?.userId ?? null,
            out_of_order_by_display: outOfOrder?.userDisplayName ?? null,
          }
        : {}),
      ...(online !== undefined ? { online } : {}),
      updated,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMachineRecord(row);
}

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

/**
 * Records the number of slots the locker reports, when it changed; answers the machine after the
 * change, or undefined when the locker said the same as before (or the machine is gone).
 */
export async function noteReportedSlotsRow(db: Db, machineId: string, slots: number) {
  const row = await db
    .updateTable('machines')
    .set({ reported_slots: slots })
    .where('id', '=', machineId)
    .where((eb) => eb.or([eb('reported_slots', 'is', null), eb('reported_slots', '!=', slots)]))
    .returningAll()
    .executeTakeFirst();
  return row && toMachineRecord(row);
}

/** How many slots the machine's locker last said it has (null: it never said). */
export async function reportedSlotsOf(db: Db, machineId: string): Promise<number | null> {
  const row = await db.selectFrom('machines').select('reported_slots').where('id', '=', machineId).executeTakeFirst();
  return row?.reported_slots ?? null;
}
