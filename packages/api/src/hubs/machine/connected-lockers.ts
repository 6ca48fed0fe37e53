import type { Frame } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import { type LockerAnswer, type LockerCommand, liveOf } from '../../live/live.ts';
import { metricsOf } from '../../metrics/metrics.ts';
import { handle } from './handlers.ts';
import type { LockerIdentity } from './identity.ts';
import type { ReadingsBatcher } from './readings.ts';
import { LockerSession, type LockerSocket, lostCallMessages } from './session.ts';

/** A locker's answer frame as the process that asked hears it; the hub's own stand-ins are no answer. */
function answerOf(frame: Frame): LockerAnswer {
  if (frame[0] === 3) {
    const payload = frame[2];
    return {
      kind: 'answered',
      payload: typeof payload === 'object' && payload ? (payload as Record<string, unknown>) : {},
    };
  }
  if (frame[0] === 4 && frame[2] === 'InternalError' && lostCallMessages.includes(frame[3]))
    return { kind: 'noAnswer' };
  return frame[0] === 4 ? { kind: 'refused', code: frame[2], description: frame[3] } : { kind: 'noAnswer' };
}

/**
 * The lockers connected to this process, one session a machine: each receives its socket's frames,
 * and the calls and hang-ups other parts of the api (any process) send its machine.
 */
export class ConnectedLockers {
  private readonly byMachine = new Map<string, LockerSession>();
  private readonly bySocket = new WeakMap<object, LockerSession>();

  constructor(
    private readonly deps: AppDeps,
    private readonly batcher: ReadingsBatcher,
    private readonly options: { heartbeatIntervalSeconds: number },
  ) {
    metricsOf(deps).track('lockers', () => this.byMachine.size);
    liveOf(deps).onLockerCommand((command) => this.command(command));
  }

  /** A locker connected; the connection ends when its access token expires (the locker refreshes). */
  open(key: object, socket: LockerSocket, who: LockerIdentity): void {
    const session = new LockerSession(who, socket, this.deps, this.batcher, {
      heartbeatIntervalSeconds: this.options.heartbeatIntervalSeconds,
      handle,
    });
    // A second connection for the same machine replaces the first (a locker that reconnected
    // before the hub noticed the old connection died).
    this.byMachine.get(who.machineId)?.close(4000, 'Replaced by a new connection');
    this.byMachine.set(who.machineId, session);
    this.bySocket.set(key, session);
    const left = Math.min(Math.max(0, who.expiresAt - this.deps.now()), 2 ** 31 - 1);
    session.expiry = setTimeout(() => session.close(4003, 'Access token expired'), left);
  }

  receive(key: object, message: unknown): void {
    this.bySocket.get(key)?.receive(message);
  }

  closed(key: object): void {
    const session = this.bySocket.get(key);
    if (!session) return;
    session.dispose();
    clearTimeout(session.expiry);
    if (this.byMachine.get(session.who.machineId) === session) this.byMachine.delete(session.who.machineId);
  }

  closeAll(code: number, reason: string): void {
    for (const s of this.byMachine.values()) s.close(code, reason);
  }

  /** A call for a machine's locker, or an order to hang up on it (one credential's connection, or any). */
  private command(command: LockerCommand): void {
    const session = this.byMachine.get(command.machineId);
    if (!session) return;
    if (command.kind === 'disconnect') {
      if (command.credentialId && command.credentialId !== session.who.credentialId) return;
      session.close(command.code ?? 4001, command.reason);
      return;
    }
    const live = liveOf(this.deps);
    const { sent, answer } = session.call(command.action, command.payload);
    if (sent && command.callId) live.lockerCallSent(command.callId);
    void answer.then((frame) => {
      if (command.answer && command.callId && sent) live.lockerAnswered(command.callId, answerOf(frame));
      if (frame[0] === 4) {
        this.deps.logger.warn('locker refused a call', {
          machineId: command.machineId,
          action: command.action,
          code: frame[2],
        });
      }
    });
  }
}
