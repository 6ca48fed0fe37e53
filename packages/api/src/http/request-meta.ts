/** Bun's server as Elysia exposes it: enough to ask for the peer's address. */
type ServerLike = { requestIP?(request: Request): { address: string } | null } | null | undefined;

export type RequestMeta = { requestId: string; ip: string | null; userAgent: string | null; secure: boolean };

const metaOf = new WeakMap<Request, RequestMeta>();
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The request id (a caller's well-formed X-Request-Id, else a new one), peer address and user agent,
 * computed once per request so the log line and the handler agree.
 */
export function requestMeta(request: Request, server?: ServerLike): RequestMeta {
  const known = metaOf.get(request);
  if (known) return known;
  const given = request.headers.get('x-request-id');
  const forwardedProto = request.headers.get('x-forwarded-proto');
  const meta: RequestMeta = {
    requestId: given && REQUEST_ID.test(given) ? given : crypto.randomUUID(),
    ip: server?.requestIP?.(request)?.address ?? null,
    userAgent: request.headers.get('user-agent')?.slice(0, 300) ?? null,
    secure: new URL(request.url).protocol === 'https:' || forwardedProto === 'https',
  };
  metaOf.set(request, meta);
  return meta;
}
