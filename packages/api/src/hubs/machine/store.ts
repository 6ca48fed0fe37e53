import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import type { MachineRow } from '../../areas/machines/repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Who a connection speaks for: fixed at the upgrade, from the access token. `isTest`: a QA test machine,
 * whose pushes stay off the fleet dashboard.
 */
export type LockerIdentity = {
  machineId: string;
  businessId: string;
  credentialId: string;
  expiresAt: number;
  isTest: boolean;
};

/**
 * The locker's machine no longer exists (a test machine removed while its locker was connected): the
 * locker is told, its connection closed with 4001, and it pairs again.
 */
export class MachineGone extends Error {
  constructor(readonly machineId: string) {
    super(`Machine ${machineId} no longer exists`);
  }
}

/** Which of these machines still exist. */
export async function existingMachines(db: Db, ids: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom('machines').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export const machineRow = (db: Db, id: string): Promise<MachineRow | undefined> =>
  db.selectFrom('machines').selectAll().where('id', '=', id).executeTakeFirst();

/** The highest sequence number stored for a machine, 0 for none. */
export async function lastStoredSeq(db: Db, who: LockerIdentity): Promise<number> {
  const row = await db
    .selectFrom('locker_event_receipts')
    .select((eb) => eb.fn.max('sequence').as('seq'))
    .where('business_id', '=', who.businessId)
    .where('machine_id', '=', who.machineId)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** Marks a machine as heard from now; returns the row as it was before, to tell an offline→online change. */
export async function touchOnline(db: Db, who: LockerIdentity, now: number): Promise<{ wasOnline: boolean } | null> {
  const before = await db.selectFrom('machines').select('online').where('id', '=', who.machineId).executeTakeFirst();
  if (!before) return null;
  await db.updateTable('machines').set({ online: true, last_seen: now }).where('id', '=', who.machineId).execute();
  return { wasOnline: before.online };
}

export async function insertStatus(
  db: Db,
  who: LockerIdentity,
  observations: Record<string, unknown>,
  created: number,
): Promise<string> {
  const id = Bun.randomUUIDv7();
  await db
    .insertInto('machine_status')
    .values({
      id,
      business_id: who.businessId,
      machine_id: who.machineId,
      created,
      observations: JSON.stringify(observations),
    })
    .execute();
  return id;
}

/**
 * Claims an event id for a machine: true when this is the first time, false when it was stored
 * before (a replay). Inside the transaction that applies the event, so claim and change commit together.
 */
export async function claimEvent(
  db: Db,
  who: LockerIdentity,
  e: { eventId: string; seq: number; action: string },
  now: number,
): Promise<boolean> {
  const row = await db
    .insertInto('locker_event_receipts')
    .values({
      business_id: who.businessId,
      machine_id: who.machineId,
      locker_event_id: e.eventId,
      sequence: e.seq,
      action: e.action,
      received_at: now,
      result: null,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('locker_event_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function storedResult(db: Db, who: LockerIdentity, eventId: string): Promise<unknown> {
  const row = await db
    .selectFrom('locker_event_receipts')
    .select(['result', 'action'])
    .where('business_id', '=', who.businessId)
    .where('machine_id', '=', who.machineId)
    .where('locker_event_id', '=', eventId)
    .executeTakeFirst();
  return row?.result ?? {};
}

export async function saveResult(db: Db, who: LockerIdentity, eventId: string, result: unknown): Promise<void> {
  await db
    .updateTable('locker_event_receipts')
    .set({ result: JSON.stringify(result) })
    .where('business_id', '=', who.businessId)
    .where('machine_id', '=', who.machineId)
    .where('locker_event_id', '=', eventId)
    .execute();
}

/** A bag arrives in a slot: the bag of that barcode in this business, or a new one; matched to a current order. */
export async function loadBag(
  db: Db,
  who: LockerIdentity,
  e: { barcode: string; location: string },
  now: number,
): Promise<{ bagId: string; orderId: string | null }> {
  const order = await db
    .selectFrom('orders')
    .select('id')
    .where('business_id', '=', who.businessId)
    .where('barcode', '=', e.barcode)
    .where('status', 'in', ['new', 'loaded'])
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const existing = await db
    .selectFrom('bags')
    .select(['id', 'order_id'])
    .where('business_id', '=', who.businessId)
    .where('barcode', '=', e.barcode)
    .where((eb) => eb.or([eb('machine_id', 'is', null), eb('machine_id', '=', who.machineId)]))
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const orderId = existing?.order_id ?? order?.id ?? null;
  if (existing) {
    await db
      .updateTable('bags')
      .set({ machine_id: who.machineId, location: e.location, order_id: orderId, updated: now })
      .where('id', '=', existing.id)
      .execute();
    return { bagId: existing.id, orderId };
  }
  const bagId = Bun.randomUUIDv7();
  await db
    .insertInto('bags')
    .values({
      id: bagId,
      business_id: who.businessId,
      barcode: e.barcode,
      reference: null,
      location: e.location,
      machine_id: who.machineId,
      order_id: orderId,
      pin: null,
      created: now,
      updated: now,
    })
    .execute();
  return { bagId, orderId };
}

/** A bag leaves the machine (removed by staff, or collected): it stays on record without a machine. */
export async function unloadBag(
  db: Db,
  who: LockerIdentity,
  e: { barcode: string },
  now: number,
): Promise<{ bagId: string | null; orderId: string | null }> {
  const bag = await db
    .selectFrom('bags')
    .select(['id', 'order_id'])
    .where('business_id', '=', who.businessId)
    .where('machine_id', '=', who.machineId)
    .where('barcode', '=', e.barcode)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!bag) return { bagId: null, orderId: null };
  await db
    .updateTable('bags')
    .set({ machine_id: null, location: null, updated: now })
    .where('id', '=', bag.id)
    .execute();
  return { bagId: bag.id, orderId: bag.order_id };
}

/** Whether the business wants temperature alarms (on unless its feature settings turn them off). */
export async function temperatureAlertsOn(db: Db, businessId: string): Promise<boolean> {
  const row = await db
    .selectFrom('business_feature_settings')
    .select('settings')
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  const settings = row?.settings as { temperatureSettings?: { enableTemperatureAlerts?: unknown } } | undefined;
  return settings?.temperatureSettings?.enableTemperatureAlerts !== false;
}
