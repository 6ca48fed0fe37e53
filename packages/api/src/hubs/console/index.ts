import { AppError } from '@medlocker/core';
import { type } from 'arktype';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../deps.ts';
import type { Principal } from '../../rpc/context.ts';
import { type ConsoleEvent, liveOf } from '../live.ts';

/**
 * What a console may ask on `/ws`: `{ action: 'subscribe' | 'unsubscribe', params: { businessId } |
 * { machineId } | { groupId } | { fleet: true } }`. Answers and pushes are `{ action, params }` (SPEC §3).
 */
const ConsoleRequest = type({
  action: "'subscribe' | 'unsubscribe' | 'ping'",
  'params?': type({
    'businessId?': 'string > 0',
    'machineId?': 'string > 0',
    'groupId?': 'string > 0',
    'fleet?': 'boolean',
  }),
});

type Subscriptions = { fleet: boolean; businesses: Set<string>; machines: Set<string>; groups: Set<string> };

type ConsoleConnection = {
  principal: Principal;
  subs: Subscriptions;
  send(text: string): void;
};

/** True when a signed-in principal may see pushes of this business (support staff see every business). */
export const maySee = (principal: Principal, _event: ConsoleEvent): boolean => principal.scopes.includes('support');

const wants = (subs: Subscriptions, event: ConsoleEvent): boolean =>
  (subs.fleet && event.fleet !== false) ||
  subs.businesses.has(event.businessId) ||
  (!!event.machineId && subs.machines.has(event.machineId)) ||
  (!!event.groupId && subs.groups.has(event.groupId));

type WsLike = { data: { request: Request }; send(text: string): unknown; close(code?: number, reason?: string): void };

/**
 * The console hub: the browser's session cookie authenticates the upgrade (support scope required);
 * the console then subscribes to a business, a machine or the fleet and receives the pushes it may see.
 */
export function consoleHub(deps: AppDeps) {
  const principals = new WeakMap<Request, Principal>();
  const connections = new Map<object, ConsoleConnection>();

  liveOf(deps).onConsoleEvent((event) => {
    const text = JSON.stringify(event.message);
    for (const c of connections.values()) {
      if (wants(c.subs, event) && maySee(c.principal, event)) c.send(text);
    }
  });

  return new Elysia({ name: 'hub:console' }).ws('/ws', {
    async beforeHandle({ request }) {
      const principal = await deps.auth.principalOf(request, { ip: null, now: deps.now() });
      if (!principal) throw new AppError('UNAUTHENTICATED', 'Please log in');
      if (!principal.scopes.includes('support')) throw new AppError('FORBIDDEN', 'You do not have access to this area');
      principals.set(request, principal);
    },
    open(ws) {
      const socket = ws as unknown as WsLike;
      const principal = principals.get(socket.data.request);
      if (!principal) {
        socket.close(4401, 'Not authenticated');
        return;
      }
      connections.set(socket.data, {
        principal,
        subs: { fleet: false, businesses: new Set(), machines: new Set(), groups: new Set() },
        send: (text) => {
          try {
            socket.send(text);
          } catch {
            // closed meanwhile
          }
        },
      });
    },
    message(ws, message) {
      const socket = ws as unknown as WsLike;
      const connection = connections.get(socket.data);
      if (!connection) return;
      const parsed = ConsoleRequest(typeof message === 'string' ? safeJson(message) : message);
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
      if (params.businessId) add ? subs.businesses.add(params.businessId) : subs.businesses.delete(params.businessId);
      if (params.machineId) add ? subs.machines.add(params.machineId) : subs.machines.delete(params.machineId);
      if (params.groupId) add ? subs.groups.add(params.groupId) : subs.groups.delete(params.groupId);
      connection.send(JSON.stringify({ action: `${parsed.action}d`, params }));
    },
    close(ws) {
      connections.delete((ws as unknown as WsLike).data);
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
