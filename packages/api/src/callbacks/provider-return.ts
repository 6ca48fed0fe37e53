import { linkOrigin, siteOf } from '../areas/auth/index.ts';
import type { Actor } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { requestMeta } from '../http/request-meta.ts';
import { originOf } from '../rpc/actor-of.ts';

/** The request as an Elysia route handler receives it. */
export type Exchange = {
  request: Request;
  server: Parameters<typeof requestMeta>[1];
  set: { status?: number | string; headers: Record<string, unknown> };
};

/** What `back` works with: an anonymous caller, the site's own origin, and the cookies to set. */
export type Arrival = { actor: Actor; publicOrigin: string; secure: boolean; cookies: string[] };

/**
 * A browser sent back by a sign-in provider (NHS login, single sign-on): `back` decides where it goes
 * next and which cookies it gets. Whatever happens it is a 303 to a page of ours, never cached: an
 * error is logged (`failure.log`) and lands on `failure.location`, never a 500 page in the middle of a
 * sign-in.
 */
export async function providerReturn(
  deps: AppDeps,
  { request, server, set }: Exchange,
  failure: { log: string; location: string },
  back: (arrival: Arrival) => Promise<string>,
): Promise<''> {
  const meta = requestMeta(request, server, deps.config.trustProxy);
  const actor: Actor = { kind: 'anonymous', origin: originOf(meta, 'portal') };
  const publicOrigin = linkOrigin(deps, siteOf(request)) ?? new URL(request.url).origin;
  const cookies: string[] = [];
  let location: string;
  try {
    location = await back({ actor, publicOrigin, secure: meta.secure, cookies });
  } catch (error) {
    deps.logger.error(failure.log, {
      requestId: meta.requestId,
      error: error instanceof Error ? error.message : String(error),
    });
    location = failure.location;
  }
  set.status = 303;
  set.headers.location = location;
  set.headers['cache-control'] = 'no-store';
  if (cookies.length > 0) set.headers['set-cookie'] = cookies;
  return '';
}
