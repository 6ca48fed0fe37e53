import { formatTemperature } from '@medlocker/core';
import { publishRecorded, type RecordedEvent, recordMachineEvent } from '../../areas/machines/events.ts';
import type { AppDeps } from '../../deps.ts';
import { liveOf } from '../live.ts';
import { isExcursion, type Reading, TEMPERATURE_WINDOW_MS, temperatureRange } from '../protocol.ts';
import { averageSince, type LockerIdentity, machineRow, temperatureAlertsOn } from './store.ts';

type Pending = {
  who: LockerIdentity;
  eventId: string;
  seq: number;
  readings: Reading[];
  done: (result: { stored: number; duplicate: boolean }) => void;
  fail: (error: unknown) => void;
};

export type BatcherOptions = {
  /** How long the first reading of a batch may wait for others, ms. */
  maxDelayMs: number;
  /** A batch is written at once when it holds this many readings. */
  maxReadings: number;
  /** A machine's 3-hour average is recomputed at most this often, ms (0: after every batch). */
  recomputeEveryMs: number;
};

// Rows per INSERT: 6 parameters a reading, well under PostgreSQL's 65535 parameters a statement.
const ROWS_PER_INSERT = 5000;

/**
 * Groups TemperatureReadings from all lockers that arrive close together into one transaction: one
 * INSERT of receipts and one of readings, instead of one transaction per message (PGlite runs one query
 * at a time and blocks the event loop while it does). Each caller is answered only after the commit.
 */
export class ReadingsBatcher {
  private queue: Pending[] = [];
  private queued = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly lastRecompute = new Map<string, number>();

  constructor(
    private readonly deps: AppDeps,
    private readonly options: BatcherOptions,
  ) {}

  add(who: LockerIdentity, eventId: string, seq: number, readings: Reading[]) {
    return new Promise<{ stored: number; duplicate: boolean }>((done, fail) => {
      this.queue.push({ who, eventId, seq, readings, done, fail });
      this.queued += readings.length;
      if (this.queued >= this.options.maxReadings) this.flushSoon(0);
      else this.flushSoon(this.options.maxDelayMs);
    });
  }

  private flushSoon(delay: number) {
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // One flush at a time: the next batch collects while this one commits.
      this.flushing = this.flushing.then(() => this.flush());
    }, delay);
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    this.queued = 0;
    if (batch.length === 0) return;
    const now = this.deps.now();
    try {
      const claimed = await this.deps.db.transaction().execute(async (tx) => {
        // Two copies of one event in the same batch: only the first may claim it.
        const seen = new Set<string>();
        const unique = batch.filter((p) => {
          const key = `${p.who.machineId}\u0000${p.eventId}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
        const rows = await tx
          .insertInto('locker_event_receipts')
          .values(
            unique.map((p) => ({
              business_id: p.who.businessId,
              machine_id: p.who.machineId,
              locker_event_id: p.eventId,
              sequence: p.seq,
              action: 'TemperatureReadings',
              received_at: now,
              result: JSON.stringify({ stored: p.readings.length }),
            })),
          )
          .onConflict((oc) => oc.doNothing())
          .returning(['machine_id', 'locker_event_id'])
          .execute();
        const fresh = new Set(rows.map((r) => `${r.machine_id}\u0000${r.locker_event_id}`));
        const readings = unique
          .filter((p) => fresh.has(`${p.who.machineId}\u0000${p.eventId}`))
          .flatMap((p) =>
            p.readings.map((r) => ({
              id: Bun.randomUUIDv7(),
              business_id: p.who.businessId,
              machine_id: p.who.machineId,
              created: r.created,
              value: r.value,
              locker_event_id: p.eventId,
            })),
          );
        for (let i = 0; i < readings.length; i += ROWS_PER_INSERT) {
          await tx
            .insertInto('temperature_readings')
            .values(readings.slice(i, i + ROWS_PER_INSERT))
            // The replay key is the reading's time: a reading sent again in a new event is stored once.
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
        return fresh;
      });
      for (const p of batch) {
        const isNew = claimed.has(`${p.who.machineId}\u0000${p.eventId}`);
        p.done({ stored: p.readings.length, duplicate: !isNew });
      }
      const machines = new Map<string, LockerIdentity>();
      for (const p of batch)
        if (claimed.has(`${p.who.machineId}\u0000${p.eventId}`)) machines.set(p.who.machineId, p.who);
      await this.recompute([...machines.values()], now);
    } catch (error) {
      for (const p of batch) p.fail(error);
    }
  }

  /** Updates the 3-hour average of machines that got readings, and raises MP_0001 when one leaves the range. */
  private async recompute(machines: LockerIdentity[], now: number): Promise<void> {
    for (const who of machines) {
      const last = this.lastRecompute.get(who.machineId);
      if (last !== undefined && now - last < this.options.recomputeEveryMs) continue;
      this.lastRecompute.set(who.machineId, now);
      try {
        await updateTemperatureStatus(this.deps, who, now);
      } catch (error) {
        this.deps.logger.error('temperature status update failed', { machineId: who.machineId, error: String(error) });
      }
    }
  }
}

/**
 * Recomputes a machine's temperatureStatus from its last 3 hours of readings. An excursion starts when
 * the average leaves the allowed range (it was inside, or unknown, before): then MP_0001 with the
 * average is raised, if the business has temperature alerts on. One alarm per excursion, not per batch.
 */
export async function updateTemperatureStatus(deps: AppDeps, who: LockerIdentity, now: number): Promise<void> {
  let recorded: RecordedEvent | null = null;
  const status = await deps.db.transaction().execute(async (tx) => {
    const average = await averageSince(tx, who, now - TEMPERATURE_WINDOW_MS, now);
    if (average === null) return null;
    const machine = await machineRow(tx, who.machineId);
    if (!machine) return null;
    const wasExcursion = machine.temperature_average !== null && isExcursion(machine.temperature_average);
    const startsExcursion = isExcursion(average) && !wasExcursion;
    const lastExcursionAt = startsExcursion ? now : machine.temperature_last_excursion_at;
    await tx
      .updateTable('machines')
      .set({ temperature_average: average, temperature_updated: now, temperature_last_excursion_at: lastExcursionAt })
      .where('id', '=', who.machineId)
      .execute();
    if (startsExcursion && (await temperatureAlertsOn(tx, who.businessId))) {
      recorded = await recordMachineEvent(tx, deps, machine, {
        code: 'MP_0001',
        message: `Average temperature ${formatTemperature(average)} over the last 3 hours, outside ${temperatureRange.min}–${temperatureRange.max}°C`,
        data: { average, min: temperatureRange.min, max: temperatureRange.max },
        created: now,
      });
    }
    return { average, lastExcursionAt, updated: now };
  });
  if (!status) return;
  liveOf(deps).publish({
    businessId: who.businessId,
    machineId: who.machineId,
    message: { action: 'temperature', params: { machineId: who.machineId, temperatureStatus: status } },
  });
  if (recorded) publishRecorded(deps, recorded);
}
