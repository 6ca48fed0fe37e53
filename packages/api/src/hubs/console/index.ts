import { AppError, liveCloseCodes } from '@medlocker/core';
import { type } from 'arktype';
import { Elysia } from 'elysia';
import type { Principal } from '../../actor.ts';
import type { AppDeps } from '../../deps.ts';
import { type ConsoleEvent, liveOf } from '../../live/live.ts';
import { metricsOf } from '../../metrics/metrics.ts';
import { type ConsoleReach, reachOfUser } from './reach-repository.ts';

/**
 * What a console may ask on `/ws`: `{ action: 'subscribe' | 'unsubscribe', params: { businessId } |
 * { machineId } | { groupId } | { fleet: true } | { notifications: true } }`. Answers and pushes are `{ action, params }`. A frame
 * is the body of SPEC §3's WebSocket message; its connectionId is the hub's own id of the connection,
 * given at connect and named in the hub's log lines for connect, disconnect and each message (SPEC §7's
 * websockets connect, disconnect and default are `open`, `close` and `message` below).
 */
const ConsoleRequest = type({
  action: "'subscribe' | 'unsubscribe' | 'ping'",
  'params?': type({
    'businessId?': 'string > 0',
    'machineId?': 'string > 0',
    'groupId?': 'string > 0',
    'fleet?': 'boolean',
    /** Every staff notification the user may see (the bell), and nothing else of the fleet's. */
    'notifications?': 'boolean',
  }),
});

type Subscriptions = {
  fleet: boolean;
  notifications: boolean;
  businesses: Set<string>;
  machines: Set<string>;
  groups: Set<string>;
};

type ConsoleConnection = {
  /** The connection's id (a UUIDv7), the connectionId of the WebSocket messages it sends. */
  id: string;
  principal: Principal;
  /** Null for support staff (the whole estate); a pharmacy user's businesses and groups otherwise. */
  reach: ConsoleReach | null;
  /** The upgrade request: its cookie is the session checked again while the socket is open. */
  request: Request;
  subs: Subscriptions;
  send(text: string): void;
  close(code: number, reason: string): void;
};

export type ConsoleHubOptions = {
  /** How often every open console's session is checked again, ms (0: only when access changes). */
  sessionCheckEveryMs: number;
};

/**
 * Who may hold a console socket: support staff (the whole estate), and pharmacy users with a Business or
 * Group role (the businesses those reach). Checked at the upgrade and again while open. Null: nobody.
 */
async function accessOf(deps: AppDeps, principal: Principal): Promise<{ reach: ConsoleReach | null } | null> {
  if (principal.scopes.includes('support')) return { reach: null };
  const reach = await reachOfUser(deps.db, principal.userId);
  return reach.businesses.size > 0 || reach.groups.size > 0 ? { reach } : null;
}

/** True when a connection may see a push: support staff see every one; a pharmacy user, its businesses' and groups'. */
export const maySee = (reach: ConsoleReach | null, event: ConsoleEvent): boolean =>
  reach === null ||
  (event.businessId !== '' && reach.businesses.has(event.businessId)) ||
  (!!event.groupId && reach.groups.has(event.groupId));

const wants = (subs: Subscriptions, event: ConsoleEvent): boolean =>
  (subs.fleet && event.fleet !== false) ||
  (subs.notifications && event.message.action === 'notification') ||
  subs.businesses.has(event.businessId) ||
  (!!event.machineId && subs.machines.has(event.machineId)) ||
  (!!event.groupId && subs.groups.has(event.groupId));

type WsLike = { data: { request: Request }; send(text: string): unknown; close(code?: number, reason?: string): void };

/**
 * The console hub: the browser's session cookie authenticates the upgrade (support staff, or a pharmacy
 * user with a Business or Group role); the console then subscribes to a business, a machine, a group or
 * the fleet and receives the pushes it may see: a pharmacy user only those of the businesses and groups
 * its roles reach, whatever it subscribed to.
 */
export function consoleHub(deps: AppDeps, options: ConsoleHubOptions = { sessionCheckEveryMs: 60_000 }) {
  const principals = new WeakMap<Request, { principal: Principal; reach: ConsoleReach | null }>();
  const connections = new Map<object, ConsoleConnection>();
  metricsOf(deps).track('consoles', () => connections.size);

  /**
   * Checks a connection's session again: ended (logged out, expired, password reset) → closed 4401;
   * without the support scope or a business role now → closed 4403; otherwise its principal and reach
   * are refreshed and, when
   * `tell`, the console hears `switchBusiness` and reads its session again (its roles changed).
   * A database failure leaves the connection as it was: the next check decides.
   */
  async function recheck(c: ConsoleConnection, tell: boolean): Promise<void> {
    let principal: Principal | null;
    try {
      principal = await deps.auth.principalOf(c.request, { ip: null, now: deps.now(), touch: false });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'UNAUTHENTICATED')) {
        deps.logger.warn('console session check failed', { error: String(error) });
        return;
      }
      principal = null;
    }
    if (!principal) return c.close(liveCloseCodes.sessionEnded, 'Session ended');
    let access: Awaited<ReturnType<typeof accessOf>>;
    try {
      access = await accessOf(deps, principal);
    } catch (error) {
      deps.logger.warn('console access check failed', { error: String(error) });
      return;
    }
    if (!access) return c.close(liveCloseCodes.accessRemoved, 'Access removed');
    c.principal = principal;
    c.reach = access.reach;
    if (tell) c.send(JSON.stringify({ action: 'switchBusiness', params: { reason: 'accessChanged' } }));
  }

  const live = liveOf(deps);
  live.onConsoleEvent((event) => {
    const text = JSON.stringify(event.message);
    for (const c of connections.values()) {
      if (wants(c.subs, event) && maySee(c.reach, event)) c.send(text);
    }
  });
  live.onAccessChanged(({ userId }) => {
    for (const c of connections.values()) if (c.principal.userId === userId) void recheck(c, true);
  });
  let checker: ReturnType<typeof setInterval> | undefined;

  return new Elysia({ name: 'hub:console' })
    .onStart(() => {
      // Sessions also end by themselves (idle or absolute expiry): an open socket must not outlive them.
      if (options.sessionCheckEveryMs > 0 && !checker) {
        checker = setInterval(() => {
          for (const c of connections.values()) void recheck(c, false);
        }, options.sessionCheckEveryMs);
      }
    })
    .onStop(() => {
      if (checker) clearInterval(checker);
      checker = undefined;
      // Going away: the console reconnects (to another instance, or to this one once restarted).
      for (const c of connections.values()) c.close(1001, 'Server stopping');
    })
    .ws('/ws', {
      async beforeHandle({ request }) {
        const principal = await deps.auth.principalOf(request, { ip: null, now: deps.now() });
        if (!principal) throw new AppError('UNAUTHENTICATED', 'Please log in');
        const access = await accessOf(deps, principal);
        if (!access) throw new AppError('FORBIDDEN', 'You do not have access to this area');
        principals.set(request, { principal, reach: access.reach });
      },
      open(ws) {
        const socket = ws as unknown as WsLike;
        const access = principals.get(socket.data.request);
        if (!access) {
          socket.close(liveCloseCodes.sessionEnded, 'Not authenticated');
          return;
        }
        const id = Bun.randomUUIDv7();
        const { principal, reach } = access;
        deps.logger.debug('console connected', { connectionId: id, userId: principal.userId });
        connections.set(socket.data, {
          id,
          principal,
          reach,
          request: socket.data.request,
          subs: { fleet: false, notifications: false, businesses: new Set(), machines: new Set(), groups: new Set() },
          send: (text) => {
            try {
              socket.send(text);
            } catch {
              // closed meanwhile
            }
          },
          close: (code, reason) => {
            connections.delete(socket.data);
            socket.close(code, reason);
          },
        });
      },
      message(ws, message) {
        const socket = ws as unknown as WsLike;
        const connection = connections.get(socket.data);
        if (!connection) return;
        // The frame is the body of SPEC §3's WebSocket message; its connectionId is the connection's.
        const parsed = ConsoleRequest(typeof message === 'string' ? safeJson(message) : message);
        deps.logger.debug('console message', {
          connectionId: connection.id,
          action: parsed instanceof type.errors ? 'invalid' : parsed.action,
        });
        if (parsed instanceof type.errors) {
          connection.send(JSON.stringify({ action: 'error', params: { message: parsed.summary } }));
          return;
        }
        const params = parsed.params ?? {};
        if (parsed.action === 'ping') {
          connection.send(JSON.stringify({ action: 'pong', params: {} }));
          return;
        }
        const add = parsed.action === 'subscribe';
        const { subs } = connection;
        if (params.fleet !== undefined) subs.fleet = add && params.fleet;
        if (params.notifications !== undefined) subs.notifications = add && params.notifications;
        if (params.businessId) add ? subs.businesses.add(params.businessId) : subs.businesses.delete(params.businessId);
        if (params.machineId) add ? subs.machines.add(params.machineId) : subs.machines.delete(params.machineId);
        if (params.groupId) add ? subs.groups.add(params.groupId) : subs.groups.delete(params.groupId);
        connection.send(JSON.stringify({ action: `${parsed.action}d`, params }));
      },
      close(ws) {
        const data = (ws as unknown as WsLike).data;
        const connection = connections.get(data);
        if (connection) deps.logger.debug('console disconnected', { connectionId: connection.id });
        connections.delete(data);
      },
    });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
