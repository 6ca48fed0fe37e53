import { AppError, protocolTiming } from '@medlocker/core';
import { Elysia } from 'elysia';
import { checkAccessToken } from '../../areas/device-auth/index.ts';
import { sweepOffline } from '../../areas/machines/index.ts';
import type { AppDeps } from '../../deps.ts';
import { liveOf } from '../../live/live.ts';
import { metricsOf } from '../../metrics/metrics.ts';
import { handle } from './handlers.ts';
import type { LockerIdentity } from './identity.ts';
import { type BatcherOptions, ReadingsBatcher } from './readings.ts';
import { LockerSession } from './session.ts';

/** The subprotocol a locker offers (and the hub answers with) on `/machine`. */
export const LOCKER_SUBPROTOCOL = 'medlocker.locker.v1';
/** A browser-like client that cannot set headers offers its token as a second subprotocol: `bearer.<token>`. */
export const TOKEN_SUBPROTOCOL_PREFIX = 'bearer.';

export type MachineHubOptions = {
  heartbeatIntervalSeconds: number;
  /** How often the offline sweeper runs, ms; 0 turns it off (tests call sweepOffline themselves). */
  sweepEveryMs: number;
  batch: BatcherOptions;
};

export const defaultMachineHubOptions: MachineHubOptions = {
  heartbeatIntervalSeconds: protocolTiming.defaultHeartbeatIntervalSeconds,
  sweepEveryMs: 15_000,
  batch: { maxReadings: 2000, recomputeEveryMs: 60_000 },
};

/** Reads the access token from `Authorization: Bearer` or from the offered subprotocols. */
export function lockerTokenOf(request: Request): { token: string | null; subprotocols: string[] } {
  const subprotocols = (request.headers.get('sec-websocket-protocol') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bearer = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/i.exec((request.headers.get('authorization') ?? '').trim())?.[1];
  const offered = subprotocols
    .find((s) => s.startsWith(TOKEN_SUBPROTOCOL_PREFIX))
    ?.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
  return { token: bearer ?? offered ?? null, subprotocols };
}

type WsLike = { data: { request: Request }; send(text: string): unknown; close(code?: number, reason?: string): void };

/**
 * The machine hub: `GET /machine` upgraded to a WebSocket, one per locker, authenticated by the
 * locker's access token before the upgrade (401 otherwise). Speaks the protocol of core/src/protocol.
 */
export function machineHub(deps: AppDeps, options: MachineHubOptions = defaultMachineHubOptions) {
  const batcher = new ReadingsBatcher(deps, {
    concurrentFlushes: deps.dbKind === 'postgres' ? 4 : 1,
    ...options.batch,
  });
  const identities = new WeakMap<Request, LockerIdentity>();
  const sessions = new Map<string, LockerSession>();
  const byWs = new WeakMap<object, LockerSession>();
  let sweeper: ReturnType<typeof setInterval> | undefined;
  metricsOf(deps).track('lockers', () => sessions.size);

  const live = liveOf(deps);
  live.onLockerCommand((command) => {
    const session = sessions.get(command.machineId);
    if (!session) return;
    if (command.kind === 'disconnect') {
      if (command.credentialId && command.credentialId !== session.who.credentialId) return;
      session.close(command.code ?? 4001, command.reason);
      return;
    }
    const { sent, answer } = session.call(command.action, command.payload);
    if (sent && command.callId) live.lockerCallSent(command.callId);
    void answer.then((frame) => {
      if (frame[0] === 4) {
        deps.logger.warn('locker refused a call', {
          machineId: command.machineId,
          action: command.action,
          code: frame[2],
        });
      }
    });
  });

  return new Elysia({ name: 'hub:machine' })
    .onStart(() => {
      if (options.sweepEveryMs > 0 && !sweeper) {
        sweeper = setInterval(() => {
          sweepOffline(deps, options.heartbeatIntervalSeconds).catch((error) =>
            deps.logger.error('offline sweep failed', { error: String(error) }),
          );
        }, options.sweepEveryMs);
      }
    })
    .onStop(() => {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      for (const s of sessions.values()) s.close(1001, 'Hub stopping');
    })
    .ws('/machine', {
      async beforeHandle({ request, set }) {
        const { token, subprotocols } = lockerTokenOf(request);
        if (!token) throw new AppError('UNAUTHENTICATED', 'A locker connects with its access token');
        const check = await checkAccessToken(deps.db, token, deps.now());
        if (!check.ok) {
          deps.logger.warn('locker refused', { reason: check.reason });
          throw new AppError(
            'UNAUTHENTICATED',
            check.reason === 'expired' ? 'Access token expired' : 'Invalid access token',
          );
        }
        identities.set(request, check);
        // A client that offered subprotocols must get one back, or browsers drop the connection.
        if (subprotocols.length > 0) set.headers['sec-websocket-protocol'] = LOCKER_SUBPROTOCOL;
      },
      open(ws) {
        const socket = ws as unknown as WsLike;
        const who = identities.get(socket.data.request);
        if (!who) {
          socket.close(4401, 'Not authenticated');
          return;
        }
        const session = new LockerSession(who, socket, deps, batcher, {
          heartbeatIntervalSeconds: options.heartbeatIntervalSeconds,
          handle,
        });
        // A second connection for the same machine replaces the first (a locker that reconnected
        // before the hub noticed the old connection died).
        sessions.get(who.machineId)?.close(4000, 'Replaced by a new connection');
        sessions.set(who.machineId, session);
        byWs.set(socket.data, session);
        // The token was checked at the upgrade; the connection ends when it expires (the locker refreshes).
        const left = Math.min(Math.max(0, who.expiresAt - deps.now()), 2 ** 31 - 1);
        session.expiry = setTimeout(() => session.close(4003, 'Access token expired'), left);
      },
      message(ws, message) {
        const socket = ws as unknown as WsLike;
        byWs.get(socket.data)?.receive(typeof message === 'string' ? message : message);
      },
      close(ws) {
        const socket = ws as unknown as WsLike;
        const session = byWs.get(socket.data);
        if (!session) return;
        session.dispose();
        clearTimeout(session.expiry);
        if (sessions.get(session.who.machineId) === session) sessions.delete(session.who.machineId);
      },
    });
}
