import { AppError, liveCloseCodes } from '@medlocker/core';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../context/deps.ts';
import { assertSameOrigin } from '../../http/security.ts';
import { accessOf, type ConsoleAccess, ConsoleConnections } from './connections.ts';

/*
 * The console hub's frames are the body of SPEC §3's WebSocket message (subscriptions.ts); a
 * connection's connectionId is the hub's own id of it, given at connect and named in the hub's log lines
 * for connect, disconnect and each message (SPEC §7's websockets connect, disconnect and default are
 * `open`, `close` and `message` below).
 */

export type ConsoleHubOptions = {
  /** How often every open console's session is checked again, ms (0: only when access changes). */
  sessionCheckEveryMs: number;
};

type WsLike = { data: { request: Request }; send(text: string): unknown; close(code?: number, reason?: string): void };

/**
 * The console hub: the browser's session cookie authenticates an upgrade from this site's own pages (support staff, or a pharmacy
 * user with a Business or Group role); the console then subscribes to a business, a machine, a group or
 * the fleet and receives the pushes it may see: a pharmacy user only those of the businesses and groups
 * its roles reach, whatever it subscribed to.
 */
export function consoleHub(deps: AppDeps, options: ConsoleHubOptions = { sessionCheckEveryMs: 60_000 }) {
  const accessAtUpgrade = new WeakMap<Request, ConsoleAccess>();
  const connections = new ConsoleConnections(deps);
  let checker: ReturnType<typeof setInterval> | undefined;

  return new Elysia({ name: 'hub:console' })
    .onStart(() => {
      // Sessions also end by themselves (idle or absolute expiry): an open socket must not outlive them.
      if (options.sessionCheckEveryMs > 0 && !checker) {
        checker = setInterval(() => connections.recheckAll(), options.sessionCheckEveryMs);
      }
    })
    .onStop(() => {
      if (checker) clearInterval(checker);
      checker = undefined;
      // Going away: the console reconnects (to another instance, or to this one once restarted).
      connections.closeAll(1001, 'Server stopping');
    })
    .ws('/ws', {
      async beforeHandle({ request }) {
        // The session cookie rides along on any page's upgrade: only this site's pages may open the socket
        // (a browser always names the page's origin on a WebSocket upgrade), as with RPC calls.
        assertSameOrigin(request, deps.config.publicUrls);
        const principal = await deps.auth.principalOf(request, { ip: null, now: deps.now() });
        if (!principal) throw new AppError('UNAUTHENTICATED', 'Please log in');
        const access = await accessOf(deps, principal);
        if (!access) throw new AppError('FORBIDDEN', 'You do not have access to this area');
        accessAtUpgrade.set(request, { principal, reach: access.reach });
      },
      open(ws) {
        const socket = ws as unknown as WsLike;
        const access = accessAtUpgrade.get(socket.data.request);
        if (!access) {
          socket.close(liveCloseCodes.sessionEnded, 'Not authenticated');
          return;
        }
        connections.add(socket.data, socket, socket.data.request, access);
      },
      message(ws, message) {
        connections.receive((ws as unknown as WsLike).data, message);
      },
      close(ws) {
        connections.remove((ws as unknown as WsLike).data);
      },
    });
}
