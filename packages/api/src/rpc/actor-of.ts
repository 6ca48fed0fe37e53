import type { Actor, Origin, Principal } from '../context/actor.ts';
import type { RequestMeta } from '../http/request-meta.ts';

/**
 * The Actor of an RPC call: who the session (or bearer token) says, and where the call came from.
 * A bearer token is the CLI's; a cookie session is the portal's. Holding the Support role makes a
 * support actor; anyone else signed in is a pharmacy user, reaching the businesses and groups their
 * roles name (the session lookup fills them).
 */
export function actorOf(principal: Principal | null, request: Request, meta: RequestMeta): Actor {
  const bearer = /^Bearer\s/i.test(request.headers.get('authorization')?.trim() ?? '');
  const origin = originOf(meta, bearer ? 'cli' : 'portal');
  if (!principal) return { kind: 'anonymous', origin };
  const staff = {
    userId: principal.userId,
    sessionId: principal.sessionId,
    email: principal.email,
    displayName: principal.displayName,
    scopes: principal.scopes,
    origin,
  };
  if (principal.scopes.includes('support')) return { kind: 'support', ...staff };
  return {
    kind: 'pharmacy',
    ...staff,
    businesses: principal.businesses ?? new Map(),
    groups: principal.groups ?? new Map(),
  };
}

/** Where an HTTP request came from, for the audit log. */
export const originOf = (meta: RequestMeta, via: Origin['via']): Origin => ({
  via,
  requestId: meta.requestId,
  ip: meta.ip,
  userAgent: meta.userAgent,
});
