import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { AppError } from '@medlocker/core';
import { Elysia } from 'elysia';
import type { AppDeps } from '../context/deps.ts';
import { metricsOf } from '../metrics/metrics.ts';

/** Bun's server as Elysia exposes it: enough to ask for the peer's address. */
type ServerLike = { requestIP?(request: Request): { address: string } | null } | null | undefined;

const digest = (text: string) => createHash('sha256').update(text).digest();

function isLoopback(address: string | null): boolean {
  if (address === null) return false;
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

/**
 * Who may read /metrics (docs/decisions/operations.md "Metrics access"). With METRICS_TOKEN set: a request whose
 * `Authorization: Bearer` is that token, from anywhere. Without it: only a request whose socket peer is
 * this machine (loopback) and which passed no proxy (no X-Forwarded-For or Forwarded header: a balancer
 * on the same machine connects from loopback on behalf of anyone). TRUST_PROXY plays no part.
 */
export function checkMetricsAccess(request: Request, peer: string | null, token: string | undefined): void {
  if (token !== undefined) {
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    // Compared as digests: the same length whatever was sent, in constant time.
    if (given === undefined || !timingSafeEqual(digest(given), digest(token))) {
      throw new AppError('UNAUTHENTICATED', 'The metrics token is missing or wrong');
    }
    return;
  }
  const proxied = request.headers.has('x-forwarded-for') || request.headers.has('forwarded');
  if (!isLoopback(peer) || proxied) {
    throw new AppError('FORBIDDEN', 'Metrics are served only to this machine unless METRICS_TOKEN is set');
  }
}

/** `GET /metrics`: Prometheus's text format (metrics/metrics.ts), to those checkMetricsAccess lets in. */
export function metricsRoutes(deps: AppDeps) {
  return new Elysia({ name: 'metrics' }).get('/metrics', async ({ request, server, set }) => {
    const peer = (server as ServerLike)?.requestIP?.(request)?.address ?? null;
    checkMetricsAccess(request, peer, deps.config.metricsToken);
    const metrics = metricsOf(deps);
    set.headers['content-type'] = metrics.contentType;
    set.headers['cache-control'] = 'no-store';
    return await metrics.scrape();
  });
}
