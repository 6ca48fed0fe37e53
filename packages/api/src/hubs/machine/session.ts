import type { ContentsChange } from '@medlocker/core';
import {
  type CallFrame,
  callFrame,
  checkLockerCall,
  encodeFrame,
  errorFrame,
  type Frame,
  type HubAction,
  type LockerAction,
  type LockerRequest,
  type LockerResponse,
  parseFrame,
  protocolTiming,
  resultFrame,
} from '@medlocker/core';
import { type Database, isForeignKeyViolation } from '@medlocker/db';
import type { Transaction } from 'kysely';
import {
  applyLockerEventOnce,
  existingMachines,
  findMachine,
  insertStatus,
  lastStoredSeq,
  MachineGone,
  type MachineRecord,
  markOnline,
  publishRecorded,
  type RecordedEvent,
} from '../../areas/machines/index.ts';
import type { StoredOrder } from '../../areas/orders/index.ts';
import { publishOrder } from '../../areas/orders/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { liveOf } from '../../live/live.ts';
import { CallError } from './call-error.ts';
import { type LockerActor, type LockerIdentity, lockerActor } from './identity.ts';
import type { ReadingsBatcher } from './readings.ts';

/** The socket as a session needs it. */
export type LockerSocket = { send(text: string): unknown; close(code?: number, reason?: string): void };

export type SessionOptions = {
  heartbeatIntervalSeconds: number;
  /** Runs the handler of a checked call (handlers.ts `handle`, given by the hub). */
  handle: <A extends LockerAction>(
    session: LockerSession,
    action: A,
    payload: LockerRequest<A>,
    call: { id: string; now: number },
  ) => Promise<LockerResponse<A>>;
};

type DataEvent = { eventId: string; seq: number; created: number };

/** The machine a checked call says it speaks for, when it names one (every locker request may). */
const claimedMachineOf = (payload: unknown): string | undefined =>
  typeof payload === 'object' && payload !== null && 'machineId' in payload && typeof payload.machineId === 'string'
    ? payload.machineId
    : undefined;

/** The stand-in answers the hub gives its own call when the locker's never came. */
const lost = {
  timeout: 'The locker did not answer in time',
  unsent: 'The call could not be sent',
  closed: 'Connection closed',
} as const;
export const lostCallMessages: readonly string[] = Object.values(lost);

/**
 * One locker's connection. Calls are handled one after another, in arrival order, so a replayed queue is
 * stored in its sequence order; every call gets exactly one answer, errors included.
 */
export class LockerSession {
  private booted = false;
  private lastSeq = 0;
  private chain: Promise<void> = Promise.resolve();
  private answers: Promise<void> = Promise.resolve();
  private readonly pending = new Map<
    string,
    { resolve: (frame: Frame) => void; timer: ReturnType<typeof setTimeout> }
  >();
  private nextCallId = 1;
  /** Ends the connection when the access token expires. */
  expiry: ReturnType<typeof setTimeout> | undefined;
  /** Who the services called for this connection act as. */
  readonly actor: LockerActor;

  constructor(
    readonly who: LockerIdentity,
    private readonly socket: LockerSocket,
    readonly deps: AppDeps,
    readonly batcher: ReadingsBatcher,
    private readonly options: SessionOptions,
  ) {
    this.actor = lockerActor(who);
  }

  /** A message from the locker. Never throws. */
  receive(message: unknown): void {
    const parsed = parseFrame(message);
    if (!parsed.ok) {
      this.deps.logger.warn('locker sent a malformed frame', {
        machineId: this.who.machineId,
        problem: parsed.error[3],
      });
      this.send(parsed.error);
      return;
    }
    const frame = parsed.frame;
    if (frame[0] !== 2) {
      const waiting = this.pending.get(frame[1]);
      if (!waiting) {
        this.deps.logger.warn('locker answered an unknown call', { machineId: this.who.machineId, id: frame[1] });
        return;
      }
      this.pending.delete(frame[1]);
      clearTimeout(waiting.timer);
      waiting.resolve(frame);
      return;
    }
    // Calls start one at a time in arrival order and are answered in that order. A TemperatureReadings
    // call only waits to be queued for its batch, not for the commit: a locker's next call may start
    // meanwhile, so one locker's readings can share a batch instead of waiting a commit each.
    let answer: Promise<Frame> = Promise.resolve(errorFrame(frame[1], 'InternalError', 'not handled'));
    const started = this.chain.then(() => {
      answer = this.handleCall(frame);
      return frame[2] === 'TemperatureReadings' ? undefined : answer.then(() => undefined);
    });
    this.chain = started;
    this.answers = this.answers
      .then(() => started)
      .then(() => answer)
      .then((f) => void this.send(f));
  }

  /**
   * Sends a call to the locker: `sent` when the frame went out on the socket, `answer` its answer (or,
   * after a timeout or when it could not be sent, an InternalError frame).
   */
  call(action: HubAction, payload: Record<string, unknown>): { sent: boolean; answer: Promise<Frame> } {
    const id = `h${this.nextCallId++}`;
    let resolveAnswer!: (frame: Frame) => void;
    const answer = new Promise<Frame>((resolve) => {
      resolveAnswer = resolve;
    });
    const timer = setTimeout(() => {
      this.pending.delete(id);
      resolveAnswer(errorFrame(id, 'InternalError', lost.timeout));
    }, protocolTiming.callTimeoutMs);
    this.pending.set(id, { resolve: resolveAnswer, timer });
    const sent = this.send(callFrame(id, action, payload));
    if (!sent) {
      clearTimeout(timer);
      this.pending.delete(id);
      resolveAnswer(errorFrame(id, 'InternalError', lost.unsent));
    }
    return { sent, answer };
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  dispose(): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve(errorFrame(id, 'InternalError', lost.closed));
    }
    this.pending.clear();
  }

  /** Sends a frame; false when it was dropped. */
  private send(frame: Frame): boolean {
    try {
      // Bun answers 0 when it dropped the message (the socket is closing or hopelessly backed up).
      if (this.socket.send(encodeFrame(frame)) === 0) {
        this.deps.logger.warn('frame to locker dropped', { machineId: this.who.machineId, id: frame[1] });
        return false;
      }
      return true;
    } catch {
      // The socket closed meanwhile; the locker will replay what it did not hear answered.
      return false;
    }
  }

  private async handleCall([, id, action, payload]: CallFrame): Promise<Frame> {
    try {
      const checked = checkLockerCall(id, action, payload);
      if (!checked.ok) throw new CallError(checked.error);
      const claimed = claimedMachineOf(checked.payload);
      if (claimed !== undefined && claimed !== this.who.machineId) {
        this.deps.logger.warn('locker spoke for another machine', { machineId: this.who.machineId, claimed });
        throw new CallError(errorFrame(id, 'SecurityError', 'A locker may only speak for its own machine'));
      }
      if (!this.booted && checked.action !== 'BootNotification') {
        throw new CallError(errorFrame(id, 'ProtocolError', 'Send BootNotification first'));
      }
      const result = await this.options.handle(this, checked.action, checked.payload as never, {
        id,
        now: this.deps.now(),
      });
      return resultFrame(id, result);
    } catch (error) {
      if (error instanceof CallError) return error.frame;
      if (error instanceof MachineGone || (await this.refusedForMissingMachine(error))) {
        // Nothing was stored; once this answer is out, the connection closes and the locker pairs again.
        const archived = error instanceof MachineGone && error.archived;
        this.deps.logger.info('locker of a removed machine', { machineId: this.who.machineId, action, archived });
        this.answers = this.answers.then(() => this.close(4001, archived ? 'Machine archived' : 'Machine removed'));
        return archived
          ? errorFrame(id, 'InternalError', 'This machine is archived; pair the locker again')
          : errorFrame(id, 'InternalError', 'This machine no longer exists; pair the locker again');
      }
      this.deps.logger.error('locker call failed', {
        machineId: this.who.machineId,
        action,
        error: error instanceof Error ? error.message : String(error),
      });
      // Nothing was committed; the locker keeps the event and sends it again later.
      return errorFrame(id, 'InternalError', 'The hub could not store this; send it again later');
    }
  }

  /** A foreign key refused this machine because it was removed meanwhile (its receipt, its status…). */
  private async refusedForMissingMachine(error: unknown): Promise<boolean> {
    if (!isForeignKeyViolation(error)) return false;
    try {
      return !(await existingMachines(this.deps.db, [this.who.machineId])).has(this.who.machineId);
    } catch {
      return false;
    }
  }

  /**
   * BootNotification. Archiving or removing a machine revokes its tokens and closes its connection, so
   * a locker meets this only in a race with them: answered as a removed machine (InternalError, 4001).
   */
  async boot(p: LockerRequest<'BootNotification'>, now: number): Promise<LockerResponse<'BootNotification'>> {
    const found = await findMachine(this.deps.db, this.who.machineId);
    if (!found) throw new MachineGone(this.who.machineId);
    if (found.machine.archived !== null) throw new MachineGone(this.who.machineId, true);
    this.lastSeq = await lastStoredSeq(this.deps.db, this.who);
    if (p.lastSeq !== undefined && p.lastSeq < this.lastSeq) {
      // The locker lost its counter (a reset): its new events would look like old ones.
      this.deps.logger.warn('locker sequence behind the hub', {
        machineId: this.who.machineId,
        lockerLastSeq: p.lastSeq,
        hubLastSeq: this.lastSeq,
      });
    }
    this.booted = true;
    // What the locker says it is, kept with its status history (the console's status tab shows it).
    await insertStatus(
      this.deps.db,
      this.who,
      {
        boot: {
          vendor: p.vendor,
          model: p.model,
          firmwareVersion: p.firmwareVersion,
          serialNumber: p.serialNumber ?? null,
          lastSeq: p.lastSeq ?? null,
        },
      },
      now,
    );
    await this.online(now);
    return {
      status: 'Accepted',
      currentTime: now,
      heartbeatInterval: this.options.heartbeatIntervalSeconds,
      machineId: this.who.machineId,
      lastSeq: this.lastSeq,
      outOfOrder: found.machine.outOfOrderStatus !== null,
    };
  }

  /** The locker was heard from (a boot, a heartbeat): its machine is online. */
  online(now: number): Promise<void> {
    return markOnline(this.deps, this.who, now);
  }

  /** Logs a gap or a step back in the locker's sequence; the event is stored either way. */
  noteSeq(e: DataEvent): void {
    if (e.seq > this.lastSeq + 1) {
      this.deps.logger.warn('locker sequence gap', {
        machineId: this.who.machineId,
        expected: this.lastSeq + 1,
        received: e.seq,
      });
    }
    if (e.seq > this.lastSeq) this.lastSeq = e.seq;
  }

  /**
   * Applies a data-changing event exactly once (applyLockerEventOnce): its receipt and its change
   * commit before the answer goes out; a replay gets the stored answer. Consoles hear of what changed
   * once it has committed.
   */
  async once<A extends LockerAction>(
    e: DataEvent,
    action: A,
    apply: (
      tx: Transaction<Database>,
      machine: MachineRecord,
    ) => Promise<{
      result: LockerResponse<A>;
      recorded?: RecordedEvent;
      contents?: ContentsChange;
      /** Orders the event changed: consoles hear of them once it commits. */
      orders?: StoredOrder[];
    }>,
  ): Promise<LockerResponse<A>> {
    const outcome = await applyLockerEventOnce(this.deps, this.who, { eventId: e.eventId, seq: e.seq, action }, apply);
    if (outcome.duplicate) return outcome.result;
    this.noteSeq(e);
    if (outcome.recorded) publishRecorded(this.deps, outcome.recorded);
    for (const order of outcome.orders ?? []) publishOrder(this.deps, order);
    if (outcome.contents) {
      // The machine's contents changed: consoles showing them reload (the bag's details stay in the api).
      liveOf(this.deps).publish({
        businessId: this.who.businessId,
        machineId: this.who.machineId,
        fleet: !this.who.isTest,
        message: { action: 'statusUpdate', params: { machineId: this.who.machineId, contents: outcome.contents } },
      });
    }
    return outcome.result;
  }
}
