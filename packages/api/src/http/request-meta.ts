import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';

/** Bun's server as Elysia exposes it: enough to ask for the peer's address. */
type ServerLike = { requestIP?(request: Request): { address: string } | null } | null | undefined;

export type RequestMeta = { requestId: string; ip: string | null; userAgent: string | null; secure: boolean };

const metaOf = new WeakMap<Request, RequestMeta>();
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
const compiled = new Map<string, ReturnType<typeof proxyaddr.compile>>();

function trustOf(trustProxy: readonly string[]) {
  const key = trustProxy.join(',');
  let trust = compiled.get(key);
  if (!trust) {
    trust = proxyaddr.compile([...trustProxy]);
    compiled.set(key, trust);
  }
  return trust;
}

/**
 * Whether the request came over HTTPS: its own URL, or X-Forwarded-Proto's first value when the peer
 * is a trusted proxy (as Express reads it). Anyone else's X-Forwarded-Proto is ignored.
 */
export function isSecure(request: Request, peer: string | null, trustProxy: readonly string[]): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  if (peer === null || trustProxy.length === 0 || !trustOf(trustProxy)(peer, 0)) return false;
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https';
}

/**
 * The client's address: the socket's peer, unless the peer is one of the `trustProxy` proxies; then
 * X-Forwarded-For is read from the right, each trusted hop skipped, and the first address not trusted
 * is the client (proxy-addr, as Express does). Without trusted proxies the header is ignored, so a
 * client cannot choose its own address (the pairing-code limit and the audit log depend on it).
 */
export function clientAddress(request: Request, peer: string | null, trustProxy: readonly string[]): string | null {
  if (peer === null || trustProxy.length === 0) return peer;
  const trust = trustOf(trustProxy);
  const forwarded = request.headers.get('x-forwarded-for');
  // proxy-addr reads a Node request; these are the only two things it looks at.
  const shim = {
    connection: { remoteAddress: peer },
    socket: { remoteAddress: peer },
    headers: forwarded === null ? {} : { 'x-forwarded-for': forwarded },
  };
  let client: string;
  try {
    client = proxyaddr(shim as never, trust);
  } catch {
    return peer;
  }
  // Not an address (a proxy passed on something else): the peer, the last hop we can vouch for.
  return isIP(client) ? client : peer;
}

/**
 * The request id (a caller's well-formed X-Request-Id, else a new one), client address (see
 * clientAddress) and user agent, computed once per request so the log line and the handler agree.
 */
export function requestMeta(request: Request, server?: ServerLike, trustProxy: readonly string[] = []): RequestMeta {
  const known = metaOf.get(request);
  if (known) return known;
  const given = request.headers.get('x-request-id');
  const peer = server?.requestIP?.(request)?.address ?? null;
  const meta: RequestMeta = {
    requestId: given && REQUEST_ID.test(given) ? given : crypto.randomUUID(),
    ip: clientAddress(request, peer, trustProxy),
    userAgent: request.headers.get('user-agent')?.slice(0, 300) ?? null,
    secure: isSecure(request, peer, trustProxy),
  };
  metaOf.set(request, meta);
  return meta;
}
