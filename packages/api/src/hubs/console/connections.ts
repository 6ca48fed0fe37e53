import { AppError, liveCloseCodes } from '@medlocker/core';
import { type } from 'arktype';
import type { Principal } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { liveOf } from '../../live/live.ts';
import { metricsOf } from '../../metrics/metrics.ts';
import { type ConsoleReach, reachOfUser } from './reach-repository.ts';
import { ConsoleRequest, maySee, noSubscriptions, type Subscriptions, subscribe, wants } from './subscriptions.ts';

/** Who holds a console socket, and what their roles reach (null: support staff, the whole estate). */
export type ConsoleAccess = { principal: Principal; reach: ConsoleReach | null };

type ConsoleConnection = ConsoleAccess & {
  /** The connection's id (a UUIDv7), the connectionId of the WebSocket messages it sends. */
  id: string;
  /** The upgrade request: its cookie is the session checked again while the socket is open. */
  request: Request;
  subs: Subscriptions;
  send(text: string): void;
  close(code: number, reason: string): void;
};

/** The socket as a connection needs it. */
export type ConsoleSocket = { send(text: string): unknown; close(code?: number, reason?: string): void };

/**
 * Who may hold a console socket: support staff (the whole estate), and pharmacy users with a Business or
 * Group role (the businesses those reach). Checked at the upgrade and again while open. Null: nobody.
 */
export async function accessOf(deps: AppDeps, principal: Principal): Promise<{ reach: ConsoleReach | null } | null> {
  if (principal.scopes.includes('support')) return { reach: null };
  const reach = await reachOfUser(deps.db, principal.userId);
  return reach.businesses.size > 0 || reach.groups.size > 0 ? { reach } : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The open console sockets of this process, by the socket's data: each receives the pushes it
 * subscribed to and may see, and is checked again when its user's access changes (and, by the hub,
 * every so often: sessions also end by themselves).
 */
export class ConsoleConnections {
  private readonly open = new Map<object, ConsoleConnection>();

  constructor(private readonly deps: AppDeps) {
    metricsOf(deps).track('consoles', () => this.open.size);
    const live = liveOf(deps);
    live.onConsoleEvent((event) => {
      const text = JSON.stringify(event.message);
      for (const c of this.open.values()) {
        if (wants(c.subs, event) && maySee(c.reach, event)) c.send(text);
      }
    });
    live.onAccessChanged(({ userId }) => {
      for (const c of this.open.values()) if (c.principal.userId === userId) void this.recheck(c, true);
    });
  }

  add(key: object, socket: ConsoleSocket, request: Request, access: ConsoleAccess): void {
    const id = Bun.randomUUIDv7();
    this.deps.logger.debug('console connected', { connectionId: id, userId: access.principal.userId });
    this.open.set(key, {
      id,
      ...access,
      request,
      subs: noSubscriptions(),
      send: (text) => {
        try {
          socket.send(text);
        } catch {
          // closed meanwhile
        }
      },
      close: (code, reason) => {
        this.open.delete(key);
        socket.close(code, reason);
      },
    });
  }

  /**
   * A frame from a console: the body of SPEC §3's WebSocket message, its connectionId the connection's
   * (named in the log line of each message).
   */
  receive(key: object, message: unknown): void {
    const connection = this.open.get(key);
    if (!connection) return;
    const parsed = ConsoleRequest(typeof message === 'string' ? safeJson(message) : message);
    this.deps.logger.debug('console message', {
      connectionId: connection.id,
      action: parsed instanceof type.errors ? 'invalid' : parsed.action,
    });
    if (parsed instanceof type.errors) {
      connection.send(JSON.stringify({ action: 'error', params: { message: parsed.summary } }));
    } else if (parsed.action === 'ping') {
      connection.send(JSON.stringify({ action: 'pong', params: {} }));
    } else {
      connection.send(JSON.stringify(subscribe(connection.subs, parsed.action, parsed.params)));
    }
  }

  remove(key: object): void {
    const connection = this.open.get(key);
    if (connection) this.deps.logger.debug('console disconnected', { connectionId: connection.id });
    this.open.delete(key);
  }

  /** Checks every open connection's session again. */
  recheckAll(): void {
    for (const c of this.open.values()) void this.recheck(c, false);
  }

  closeAll(code: number, reason: string): void {
    for (const c of this.open.values()) c.close(code, reason);
  }

  /**
   * Checks a connection's session again: ended (logged out, expired, password reset) → closed 4401;
   * without the support scope or a business role now → closed 4403; otherwise its principal and reach
   * are refreshed and, when `tell`, the console hears `switchBusiness` and reads its session again (its
   * roles changed). A database failure leaves the connection as it was: the next check decides.
   */
  private async recheck(c: ConsoleConnection, tell: boolean): Promise<void> {
    const { deps } = this;
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
}
