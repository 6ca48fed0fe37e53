import { AppError } from '@medlocker/core';

/**
 * Refuses a state-changing call from a foreign page: a browser always sends `Origin` on a cross-site
 * POST, so one that names neither this server nor a configured public URL is a forgery attempt.
 * Calls without `Origin` (the cli, scripts) carry a bearer token instead of the cookie.
 */
export function assertSameOrigin(request: Request, publicUrls: string[]): void {
  const origin = request.headers.get('origin');
  if (!origin) return;
  const own = new URL(request.url).origin;
  const host = request.headers.get('host');
  const allowed = new Set([own, ...publicUrls]);
  if (host) {
    allowed.add(`http://${host}`);
    allowed.add(`https://${host}`);
  }
  if (!allowed.has(origin)) throw new AppError('FORBIDDEN', 'Cross-origin requests are not accepted');
}

/** Headers every response carries: no sniffing, no framing, no referrer leaks, a strict CSP. */
export const securityHeaders: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
};

/**
 * On every answer to a request that came over https (directly or through a trusted proxy that says so):
 * browsers then refuse plain http to this host for two years, so nobody on the way can strip TLS.
 */
export const HSTS = { 'strict-transport-security': 'max-age=63072000; includeSubDomains' };
