import { AppError, protocolTiming } from '@medlocker/core';
import { Elysia } from 'elysia';
import { checkAccessToken } from '../../areas/device-auth/index.ts';
import { sweepOffline } from '../../areas/machines/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { ConnectedLockers } from './connected-lockers.ts';
import type { LockerIdentity } from './identity.ts';
import { type BatcherOptions, ReadingsBatcher } from './readings.ts';

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
  batch: { maxReadings: 2000, recomputeEveryMs: 60_000, gatherMs: 2 },
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
  const lockers = new ConnectedLockers(deps, batcher, { heartbeatIntervalSeconds: options.heartbeatIntervalSeconds });
  let sweeper: ReturnType<typeof setInterval> | undefined;

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
      lockers.closeAll(1001, 'Hub stopping');
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
        lockers.open(socket.data, socket, who);
      },
      message(ws, message) {
        lockers.receive((ws as unknown as WsLike).data, message);
      },
      close(ws) {
        lockers.closed((ws as unknown as WsLike).data);
      },
    });
}
