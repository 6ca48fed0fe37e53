import { type HubAction, type LivePush, protocolTiming } from '@medlocker/core';
import type { Logger } from '../log/logger.ts';

/** A push to consoles: `{ action, params }` (SPEC §3 WebSocket message body), one of core's LivePush. */
export type LiveMessage = LivePush;

/**
 * A push and who may see it: consoles watching the business, the machine, the group, or the whole
 * fleet. Group pushes (archived / unarchived of a group) carry the group and an empty businessId.
 */
export type ConsoleEvent = {
  businessId: string;
  machineId?: string | null;
  groupId?: string | null;
  /** False for a push about a machine outside the fleet (a test machine): fleet watchers do not get it. */
  fleet?: boolean;
  message: LiveMessage;
};

/**
 * Something for the process that holds a locker's connection: a call to make, or to hang up. A call
 * with a `callId` is acknowledged (`lockerAck`) by the process that sent it on a locker's connection.
 * A disconnect with a `credentialId` ends only the connection made with that credential (the one a
 * refresh replaced), with `code` (default 4001).
 */
export type LockerCommand =
  | {
      machineId: string;
      kind: 'call';
      action: HubAction;
      payload: Record<string, unknown>;
      callId?: string;
      /** Send the locker's answer back (`lockerAnswer`) to the process that asked. */
      answer?: boolean;
    }
  | { machineId: string; kind: 'disconnect'; reason: string; credentialId?: string; code?: number };

/**
 * What became of a call made with `askLocker`: the locker's result payload, its error frame, no
 * connection took it (`unreached`), or no answer came in time (`noAnswer`).
 */
export type LockerAnswer =
  | { kind: 'answered'; payload: Record<string, unknown> }
  | { kind: 'refused'; code: string; description: string }
  | { kind: 'unreached' }
  | { kind: 'noAnswer' };

/** A user's sessions or roles changed (logout, password reset, roles added or removed). */
export type AccessChange = { userId: string };

export type Envelope =
  | { kind: 'console'; event: ConsoleEvent }
  | { kind: 'locker'; command: LockerCommand }
  | { kind: 'access'; change: AccessChange }
  | { kind: 'lockerAck'; callId: string }
  | { kind: 'lockerAnswer'; callId: string; answer: LockerAnswer };

/**
 * How envelopes travel between api processes. The local transport hands them straight back; the
 * PostgreSQL one (pg-transport.ts) goes through NOTIFY so every process that LISTENs gets them, the
 * one that published included.
 */
export type LiveTransport = {
  send(envelope: Envelope): void;
  onReceive(handler: (envelope: Envelope) => void): void;
  close(): Promise<void>;
};

export function localTransport(): LiveTransport {
  const handlers: ((e: Envelope) => void)[] = [];
  return {
    // A microtask, not a direct call: a publisher inside a transaction must not run socket code re-entrantly.
    send: (envelope) =>
      queueMicrotask(() => {
        for (const h of handlers) h(envelope);
      }),
    onReceive: (handler) => void handlers.push(handler),
    close: async () => {},
  };
}

/** Adds `handler` to `handlers`; answers the function that takes it out again. */
function subscribe<H>(handlers: Set<H>, handler: H): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}

/**
 * The in-process publisher other areas use: `liveOf(deps).publish({ businessId, message })` reaches the
 * consoles allowed to see it; `commandLocker` reaches a connected locker, whichever process holds it.
 * Publish after the change commits: a console that reloads on a push must find the change there.
 */
export class LiveHub {
  private readonly consoleHandlers = new Set<(event: ConsoleEvent) => void>();
  private readonly lockerHandlers = new Set<(command: LockerCommand) => void>();
  private readonly accessHandlers = new Set<(change: AccessChange) => void>();
  private readonly acks = new Map<string, () => void>();
  private readonly answers = new Map<string, (answer: LockerAnswer) => void>();

  constructor(
    private readonly transport: LiveTransport = localTransport(),
    private readonly logger?: Logger,
    /** How long askLocker waits for a locker's answer once its call went out (tests shorten it). */
    private readonly options: { answerWaitMs?: number } = {},
  ) {
    transport.onReceive((envelope) => {
      try {
        if (envelope.kind === 'console') for (const h of this.consoleHandlers) h(envelope.event);
        else if (envelope.kind === 'locker') for (const h of this.lockerHandlers) h(envelope.command);
        else if (envelope.kind === 'lockerAck') this.acks.get(envelope.callId)?.();
        else if (envelope.kind === 'lockerAnswer') this.answers.get(envelope.callId)?.(envelope.answer);
        else for (const h of this.accessHandlers) h(envelope.change);
      } catch (error) {
        this.logger?.error('live handler failed', { error: String(error) });
      }
    });
  }

  publish(event: ConsoleEvent): void {
    this.transport.send({ kind: 'console', event });
  }

  commandLocker(command: LockerCommand): void {
    this.transport.send({ kind: 'locker', command });
  }

  /**
   * Makes a call to a locker, whichever process holds its connection, and resolves true once a
   * locker connection got it (its frame was sent), false when none did within `waitMs` (the locker is
   * offline, or its connection died unnoticed).
   */
  callLocker(
    command: { machineId: string; action: HubAction; payload: Record<string, unknown> },
    waitMs = 2000,
  ): Promise<boolean> {
    const callId = Bun.randomUUIDv7();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.acks.delete(callId);
        resolve(false);
      }, waitMs);
      this.acks.set(callId, () => {
        clearTimeout(timer);
        this.acks.delete(callId);
        resolve(true);
      });
      this.commandLocker({ ...command, kind: 'call', callId });
    });
  }

  /**
   * Makes a call to a locker, whichever process holds its connection, and resolves with its answer:
   * `unreached` when no connection took the call within `reachMs`, `noAnswer` when none came within
   * the protocol's 30 s (plus a second for the way back between processes).
   */
  askLocker(
    command: { machineId: string; action: HubAction; payload: Record<string, unknown> },
    reachMs = 2000,
  ): Promise<LockerAnswer> {
    const callId = Bun.randomUUIDv7();
    const answerWaitMs = this.options.answerWaitMs ?? protocolTiming.callTimeoutMs + 1000;
    return new Promise((resolve) => {
      let timer = setTimeout(() => done({ kind: 'unreached' }), reachMs);
      const done = (answer: LockerAnswer) => {
        clearTimeout(timer);
        this.acks.delete(callId);
        this.answers.delete(callId);
        resolve(answer);
      };
      this.acks.set(callId, () => {
        this.acks.delete(callId);
        clearTimeout(timer);
        timer = setTimeout(() => done({ kind: 'noAnswer' }), answerWaitMs);
      });
      this.answers.set(callId, done);
      this.commandLocker({ ...command, kind: 'call', callId, answer: true });
    });
  }

  /** Sends the answer to the call `callId` back to the process that asked (the machine hub). */
  lockerAnswered(callId: string, answer: LockerAnswer): void {
    this.transport.send({ kind: 'lockerAnswer', callId, answer });
  }

  /** Says that the call `callId` went out on a locker's connection (the machine hub, after sending it). */
  lockerCallSent(callId: string): void {
    this.transport.send({ kind: 'lockerAck', callId });
  }

  /** Tells every process that a user's sessions or roles changed: their open consoles are checked again. */
  accessChanged(userId: string): void {
    // This process first and at once (the session cache must not answer the caller's next request
    // from before the change), then every process, this one again included, through the transport.
    for (const h of this.accessHandlersHere) h({ userId });
    this.transport.send({ kind: 'access', change: { userId } });
  }

  private readonly accessHandlersHere = new Set<(change: AccessChange) => void>();

  /**
   * Handlers run synchronously in the process that calls accessChanged, before it returns (after the
   * change committed: callers call accessChanged once their transaction is done). They also get every
   * change through onAccessChanged, from this process or another.
   */
  onAccessChangedHere(handler: (change: AccessChange) => void): () => void {
    return subscribe(this.accessHandlersHere, handler);
  }

  onAccessChanged(handler: (change: AccessChange) => void): () => void {
    return subscribe(this.accessHandlers, handler);
  }

  onConsoleEvent(handler: (event: ConsoleEvent) => void): () => void {
    return subscribe(this.consoleHandlers, handler);
  }

  onLockerCommand(handler: (command: LockerCommand) => void): () => void {
    return subscribe(this.lockerHandlers, handler);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** What liveOf needs of the app's dependencies (AppDeps). */
type WithLive = { live?: LiveHub | undefined; logger: Logger };

const hubs = new WeakMap<WithLive, LiveHub>();

/** The LiveHub of an app: `deps.live` when given (server.ts, on PostgreSQL), else one local hub per deps. */
export function liveOf(deps: WithLive): LiveHub {
  if (deps.live) return deps.live;
  let hub = hubs.get(deps);
  if (!hub) {
    hub = new LiveHub(localTransport(), deps.logger);
    hubs.set(deps, hub);
  }
  return hub;
}
