import { preparedStatement } from '@medlocker/db';
import { sql } from 'kysely';
import { inBusinessOrder } from '../../delivery/webhooks/emit.ts';
import { type Db, type MachineRecord, toMachineRecord } from './repository.ts';

/*
 * What a connected locker changes (the machine hub, hubs/machine/, through locker-events.ts, presence.ts
 * and temperature.ts): its online state, its status history, the receipts that make its data events
 * idempotent, and its temperature readings.
 */

/** The machine a locker speaks for, as the hub addresses it. */
export type HubMachineRef = { machineId: string; businessId: string };

/** Which of these machines still exist. */
export async function existingMachines(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('machines').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The highest sequence number stored for a machine, 0 for none. */
export async function lastStoredSeq(db: Db, who: HubMachineRef): Promise<number> {
  const row = await db
    .selectFrom('locker_event_receipts')
    .select((eb) => eb.fn.max('sequence').as('seq'))
    .where('business_id', '=', who.businessId)
    .where('machine_id', '=', who.machineId)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** Marks a machine as heard from now; returns whether it was online before, to tell an offline→online change. */
export async function touchOnline(db: Db, who: HubMachineRef, now: number): Promise<{ wasOnline: boolean } | null> {
  const before = await db.selectFrom('machines').select('online').where('id', '=', who.machineId).executeTakeFirst();
  if (!before) return null;
  await db.updateTable('machines').set({ online: true, last_seen: now }).where('id', '=', who.machineId).execute();
  return { wasOnline: before.online };
}

/**
 * Marks machines offline that were last heard from before `cutoff` and returns them, in business order
 * (the order their integration events are recorded in: delivery/webhooks/emit.ts). The UPDATE …
 * RETURNING claims each machine once, so several api processes may sweep at the same time.
 */
export async function markSilentOffline(db: Db, cutoff: number): Promise<MachineRecord[]> {
  const rows = await db
    .updateTable('machines')
    .set({ online: false })
    .where('online', '=', true)
    .where((eb) => eb.or([eb('last_seen', '<', cutoff), eb('last_seen', 'is', null)]))
    .returningAll()
    .execute();
  return inBusinessOrder(rows, (r) => r.business_id).map(toMachineRecord);
}

export async function insertStatus(
  db: Db,
  who: HubMachineRef,
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
  who: HubMachineRef,
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

export async function storedResult(db: Db, who: HubMachineRef, eventId: string): Promise<unknown> {
  const row = await db
    .selectFrom('locker_event_receipts')
    .select(['result', 'action'])
    .where('business_id', '=', who.businessId)
    .where('machine_id', '=', who.machineId)
    .where('locker_event_id', '=', eventId)
    .executeTakeFirst();
  return row?.result ?? {};
}

export async function saveResult(db: Db, who: HubMachineRef, eventId: string, result: unknown): Promise<void> {
  await db
    .updateTable('locker_event_receipts')
    .set({ result: JSON.stringify(result) })
    .where('business_id', '=', who.businessId)
    .where('machine_id', '=', who.machineId)
    .where('locker_event_id', '=', eventId)
    .execute();
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

/** One TemperatureReadings event of a batch. */
export type ReadingsEvent = HubMachineRef & {
  eventId: string;
  seq: number;
  readings: { created: number; value: number }[];
};

/**
 * One statement per batch (a single round trip, atomic without BEGIN/COMMIT): claims each event's
 * receipt and inserts its readings; a replay claims nothing and its readings conflict, so add nothing.
 * Returns the `machineId\0eventId` of the events claimed now. `fast`: the statement turns
 * `synchronous_commit` off for its own transaction (READINGS_COMMIT=fast, docs/PERFORMANCE.md).
 * Columns travel as arrays (unnest): ten parameters whatever the batch size, so PostgreSQL parses and
 * plans one small statement instead of a VALUES list with thousands of parameters.
 */
export async function insertReadingsBatch(
  db: Db,
  events: ReadingsEvent[],
  now: number,
  fast: boolean,
): Promise<Set<string>> {
  const readings = events.flatMap((p) => p.readings.map((r) => ({ p, r })));
  const result = await sql<{ machine_id: string; locker_event_id: string }>`${preparedStatement('readings_batch')}
      with claimed as (
        insert into locker_event_receipts (business_id, machine_id, locker_event_id, sequence, action, received_at, result)
        select business_id, machine_id, locker_event_id, sequence, 'TemperatureReadings', ${now}::bigint,
          jsonb_build_object('stored', n)
        from unnest(${events.map((p) => p.businessId)}::text[], ${events.map((p) => p.machineId)}::text[],
          ${events.map((p) => p.eventId)}::text[], ${events.map((p) => p.seq)}::bigint[],
          ${events.map((p) => p.readings.length)}::int[]) as i (business_id, machine_id, locker_event_id, sequence, n)
        on conflict do nothing
        returning machine_id, locker_event_id
      ),
      stored as (
        -- A reading's replay key is (machine, its time), so a replayed event's readings add nothing
        -- without joining them to the claimed receipts (a join the planner cannot size well).
        insert into temperature_readings (business_id, machine_id, created, value, locker_event_id)
        select r.business_id, r.machine_id, r.created, r.value, r.locker_event_id
        from unnest(${readings.map(({ p }) => p.businessId)}::text[],
          ${readings.map(({ p }) => p.machineId)}::text[], ${readings.map(({ r }) => r.created)}::bigint[],
          ${readings.map(({ r }) => r.value)}::float8[], ${readings.map(({ p }) => p.eventId)}::text[])
          as r (business_id, machine_id, created, value, locker_event_id)
        on conflict do nothing
      )
      select machine_id, locker_event_id from claimed${
        fast ? sql`, (select set_config('synchronous_commit', 'off', true)) as fast_commit` : sql``
      }`.execute(db);
  return new Set(result.rows.map((r) => `${r.machine_id}\u0000${r.locker_event_id}`));
}

/** A machine's new 3-hour average, and whether an excursion started with it. */
export type TemperatureAverage = HubMachineRef & { average: number; lastExcursionAt: number | null; started: boolean };

/**
 * Recomputes machines' 3-hour temperature averages in one statement and returns, per machine in
 * business order, the average and whether an excursion started now (the average left `min`–`max`; it
 * was inside, or unknown, before). Both keys of the (business_id, machine_id, created) index, so each
 * machine is a range scan.
 */
export async function updateTemperatureAverages(
  db: Db,
  machines: HubMachineRef[],
  q: { now: number; windowMs: number; min: number; max: number },
): Promise<TemperatureAverage[]> {
  const { now, min, max } = q;
  const { rows } = await sql<{
    id: string;
    business_id: string;
    average: number;
    last_excursion_at: number | null;
    started: boolean;
  }>`
      with averages as (
        select machine_id, avg(value)::float8 as average
        from temperature_readings
        where business_id = any(${[...new Set(machines.map((m) => m.businessId))]}::text[])
          and machine_id = any(${machines.map((m) => m.machineId)}::text[])
          and created > ${now - q.windowMs}::bigint and created <= ${now}::bigint
        group by machine_id
      ),
      before as (
        select m.id, a.average,
          (a.average < ${min} or a.average > ${max})
            and not coalesce(m.temperature_average < ${min} or m.temperature_average > ${max}, false) as started
        from machines m join averages a on a.machine_id = m.id
      )
      update machines as m
      set temperature_average = b.average,
        temperature_last_excursion_at = case when b.started then ${now}::bigint else m.temperature_last_excursion_at end,
        temperature_updated = ${now}::bigint
      from before b
      where m.id = b.id
      returning m.id, m.business_id, b.average, m.temperature_last_excursion_at as last_excursion_at, b.started`.execute(
    db,
  );
  return inBusinessOrder(rows, (r) => r.business_id).map((r) => ({
    machineId: r.id,
    businessId: r.business_id,
    average: r.average,
    lastExcursionAt: r.last_excursion_at === null ? null : Number(r.last_excursion_at),
    started: r.started,
  }));
}
