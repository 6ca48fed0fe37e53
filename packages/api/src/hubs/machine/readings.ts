import type { Reading } from '@medlocker/core';
import { isForeignKeyViolation } from '@medlocker/db';
import {
  existingMachines,
  insertReadingsBatch,
  MachineGone,
  updateTemperatureStatuses,
} from '../../areas/machines/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { LockerIdentity } from './identity.ts';

type Pending = {
  who: LockerIdentity;
  eventId: string;
  seq: number;
  readings: Reading[];
  done: (result: { stored: number; duplicate: boolean }) => void;
  fail: (error: unknown) => void;
};

export type BatcherOptions = {
  /** The most readings one statement writes (an event is never split); the rest wait for the next slot. */
  maxReadings: number;
  /** A machine's 3-hour average is recomputed at most this often, ms (0: after every batch). */
  recomputeEveryMs: number;
  /** Batches committing at the same time (PostgreSQL has a pool; PGlite runs one query at a time). */
  concurrentFlushes?: number;
  /**
   * A batch starts at least this long after the one before (ms; 0: as soon as a slot is free): readings
   * that arrive meanwhile go together, so a busy hub writes fewer, larger statements.
   */
  gatherMs?: number;
};

/**
 * Groups TemperatureReadings from all lockers into one statement per batch instead of one transaction
 * per message (PGlite runs one query at a time and blocks the event loop while it does). Group commit:
 * readings are written when a commit slot is free and `gatherMs` has passed since the last batch began
 * (what arrived meanwhile goes together); while every slot is committing, the next batch gathers. So a
 * quiet hub answers after one commit, and a busy one writes bigger batches rather than many small ones
 * (with four slots and no gathering, nearly every turn of the event loop wrote its own statement).
 * Each caller is answered only after the commit.
 */
export class ReadingsBatcher {
  private queue: Pending[] = [];
  private scheduled = false;
  private inFlight = 0;
  /** Machines with new readings whose average may be recomputed at the next check. */
  private readonly ready = new Map<string, LockerIdentity>();
  /** Machines with new readings, recomputed less than `recomputeEveryMs` ago. */
  private readonly waiting = new Map<string, LockerIdentity>();
  /** Machines recomputed lately → when they may be again; in the order they were (so, of that time). */
  private readonly cooling = new Map<string, number>();
  private recomputing = false;
  private nextCheck = 0;
  /** When the last batch started (performance.now()). */
  private lastFlush = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: AppDeps,
    private readonly options: BatcherOptions,
  ) {}

  add(who: LockerIdentity, eventId: string, seq: number, readings: Reading[]) {
    return new Promise<{ stored: number; duplicate: boolean }>((done, fail) => {
      this.queue.push({ who, eventId, seq, readings, done, fail });
      this.schedule();
    });
  }

  private get slotFree() {
    return this.inFlight < (this.options.concurrentFlushes ?? 1);
  }

  /**
   * Flushes after this turn of the event loop, or once `gatherMs` has passed since the last batch began,
   * if a commit slot is free; else a finishing commit will.
   */
  private schedule() {
    if (this.scheduled || !this.slotFree) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      while (this.queue.length > 0 && this.slotFree) void this.flush();
    };
    const wait = this.lastFlush + (this.options.gatherMs ?? 0) - performance.now();
    if (wait > 0) setTimeout(run, wait);
    else setImmediate(run);
  }

  /** Writes the oldest queued events, up to `maxReadings` readings (one event at least). */
  private async flush(): Promise<void> {
    let take = 0;
    let readings = 0;
    for (const p of this.queue) {
      if (take > 0 && readings + p.readings.length > this.options.maxReadings) break;
      readings += p.readings.length;
      take++;
    }
    const batch = this.queue.splice(0, take);
    this.lastFlush = performance.now();
    this.inFlight++;
    const now = this.deps.now();
    const began = performance.now();
    try {
      const { claimed, committed } = await this.commitExisting(batch, now);
      this.deps.logger.debug('readings batch', {
        events: batch.length,
        ms: Math.round((performance.now() - began) * 10) / 10,
        inFlight: this.inFlight,
      });
      for (const p of committed) p.done({ stored: p.readings.length, duplicate: !claimed.has(keyOf(p)) });
      for (const p of committed) if (claimed.has(keyOf(p))) this.markDirty(p.who);
    } catch (error) {
      for (const p of batch) p.fail(error);
    } finally {
      this.inFlight--;
      if (this.queue.length > 0) this.schedule();
    }
    void this.recompute();
  }

  /**
   * Commits a batch. A machine removed while its locker was still connected (a test machine) makes the
   * whole statement fail on its foreign key: then its lockers are answered MachineGone and the other
   * lockers' readings are committed again without them, so one removed machine never fails the rest.
   */
  private async commitExisting(batch: Pending[], now: number): Promise<{ claimed: Set<string>; committed: Pending[] }> {
    try {
      return { claimed: await this.commit(batch, now), committed: batch };
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      const existing = await existingMachines(this.deps.db, [...new Set(batch.map((p) => p.who.machineId))]);
      const committed = batch.filter((p) => existing.has(p.who.machineId));
      if (committed.length === batch.length) throw error;
      for (const p of batch) if (!existing.has(p.who.machineId)) p.fail(new MachineGone(p.who.machineId));
      return { claimed: committed.length > 0 ? await this.commit(committed, now) : new Set(), committed };
    }
  }

  /**
   * One statement per batch (a single round trip, atomic without BEGIN/COMMIT): claim each event's
   * receipt and insert its readings; a replay claims nothing and its readings conflict, so add nothing.
   * With READINGS_COMMIT=fast (the default) the statement turns `synchronous_commit` off for its own
   * transaction (`set_config(…, true)`): the commit is made, with its unique keys, but not waited on to
   * reach the disk. This VM's disk stalls a write-ahead-log flush for 20 ms–1 s now and then, and every
   * locker's answer waited behind it (docs/PERFORMANCE.md).
   */
  private async commit(batch: Pending[], now: number): Promise<Set<string>> {
    // Two copies of one event in the same batch: only the first may claim it.
    const seen = new Set<string>();
    const events = batch.filter((p) => !seen.has(keyOf(p)) && seen.add(keyOf(p)));
    return insertReadingsBatch(
      this.deps.db,
      events.map((p) => ({ ...p.who, eventId: p.eventId, seq: p.seq, readings: p.readings })),
      now,
      this.deps.config.readingsCommit === 'fast',
    );
  }

  private markDirty(who: LockerIdentity) {
    (this.cooling.has(who.machineId) ? this.waiting : this.ready).set(who.machineId, who);
  }

  /**
   * Updates the 3-hour averages of machines that got readings, one machine at most every
   * `recomputeEveryMs`, off the acknowledgement path: a locker's answer never waits for it. Looks at most
   * once a second, and each look costs what it finds due, not the number of machines: with 10,000
   * lockers, scanning them all every second blocked the event loop 4–13 ms each time.
   */
  private async recompute(): Promise<void> {
    if (this.recomputing) return;
    this.recomputing = true;
    try {
      while (true) {
        const now = this.deps.now();
        if (now < this.nextCheck) return;
        this.nextCheck = now + Math.min(1000, this.options.recomputeEveryMs);
        // Machines whose pause is over: those with readings meanwhile are due now.
        for (const [machineId, until] of this.cooling) {
          if (until > now) break;
          this.cooling.delete(machineId);
          const who = this.waiting.get(machineId);
          if (who) {
            this.waiting.delete(machineId);
            this.ready.set(machineId, who);
          }
        }
        if (this.ready.size === 0) return;
        // One pass per look (machines whose readings land meanwhile wait for the next look), so lockers
        // connecting one after another do not keep a recompute running back to back. A look takes at
        // most twice the machines' fair share of a second (the oldest first): 10,000 lockers connecting
        // within 10 s then spread their first averages over about 30 s instead of 1,000 machines a
        // second competing with the readings, and later rounds keep that spread.
        const every = this.options.recomputeEveryMs;
        const tracked = this.cooling.size + this.ready.size;
        const cap = every > 0 ? Math.max(100, Math.ceil((2 * tracked * 1000) / every)) : this.ready.size;
        const due: LockerIdentity[] = [];
        for (const [machineId, who] of this.ready) {
          if (due.length >= cap) break;
          due.push(who);
          this.ready.delete(machineId);
        }
        for (const who of due) this.cooling.set(who.machineId, now + every);
        for (let i = 0; i < due.length; i += 500) {
          try {
            await updateTemperatureStatuses(this.deps, due.slice(i, i + 500), now);
          } catch (error) {
            this.deps.logger.error('temperature status update failed', { error: String(error) });
          }
        }
      }
    } finally {
      this.recomputing = false;
    }
  }
}

const keyOf = (p: { who: LockerIdentity; eventId: string }) => `${p.who.machineId}\u0000${p.eventId}`;
