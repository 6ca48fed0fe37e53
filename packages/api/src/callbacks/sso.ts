import { Elysia } from 'elysia';
import { linkOrigin, siteOf } from '../areas/auth/index.ts';
import {
  type CallbackOutcome,
  callbackPath,
  SSO_COOKIE,
  samlCallback,
  samlContinue,
  samlContinuePath,
  ssoCallback,
} from '../areas/sso/index.ts';
import type { Actor } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { requestMeta } from '../http/request-meta.ts';
import { originOf } from '../rpc/actor-of.ts';
import { serializeCookie } from '../rpc/area.ts';
import { authPolicy } from '../sessions/policy.ts';

/**
 * `GET /api/auth/callback` (SPEC §7 auth.callback): where an OpenID provider sends the browser back.
 * Signed in: the session cookie and a redirect to the page the user asked for. Refused: a redirect to
 * /auth/login?sso=<reason>, where the console says why. The one-time browser cookie is cleared unless the
 * outcome keeps it. SAML: `POST /sso/saml/{id}/acs` checks the IdP's response and sends the browser to
 * `GET /sso/saml/continue`, which signs in only the browser that started (see flow.ts).
 */
export function ssoRoutes(deps: AppDeps) {
  const finish = async (
    request: Request,
    server: Parameters<typeof requestMeta>[1],
    set: { status?: number | string; headers: Record<string, unknown> },
    run: (actor: Actor, publicOrigin: string, maxAge: number) => Promise<CallbackOutcome>,
  ) => {
    const meta = requestMeta(request, server, deps.config.trustProxy);
    const actor: Actor = { kind: 'anonymous', origin: originOf(meta, 'portal') };
    const publicOrigin = linkOrigin(deps, siteOf(request)) ?? new URL(request.url).origin;
    const cookies: string[] = [];
    const clearBrowserCookie = () =>
      cookies.push(serializeCookie(SSO_COOKIE, '', meta.secure, { maxAgeSeconds: 0, sameSite: 'lax' }));
    let location: string;
    try {
      const outcome = await run(actor, publicOrigin, authPolicy.sessionAbsoluteMs / 1000);
      if (!outcome.keepBrowserCookie) clearBrowserCookie();
      if (outcome.ok && outcome.session) {
        cookies.push(
          serializeCookie(authPolicy.sessionCookie, outcome.session.token, meta.secure, {
            maxAgeSeconds: outcome.session.maxAgeSeconds,
          }),
        );
        location = outcome.location;
      } else if (outcome.ok) {
        location = outcome.location;
      } else {
        location = `/auth/login?sso=${outcome.reason}`;
      }
    } catch (error) {
      // Never a 500 page in the middle of a sign-in: the log has it, the user a way back.
      deps.logger.error('single sign-on callback failed', {
        requestId: meta.requestId,
        error: error instanceof Error ? error.message : String(error),
      });
      location = '/auth/login?sso=provider';
    }
    set.status = 303;
    set.headers.location = location;
    set.headers['cache-control'] = 'no-store';
    if (cookies.length > 0) set.headers['set-cookie'] = cookies;
    return '';
  };
  return new Elysia({ name: 'sso' })
    .get(callbackPath, ({ request, server, set }) =>
      finish(request, server, set, (actor, origin, maxAge) => ssoCallback(deps, actor, request, origin, maxAge)),
    )
    .post(
      '/sso/saml/:idpId/acs',
      ({ request, server, set, params }) =>
        finish(request, server, set, async (actor, origin) => {
          // Read by us, at most SAML_BODY_LIMIT: a huge form is refused before any XML parsing.
          const form = await boundedForm(request);
          return samlCallback(deps, actor, request, params.idpId, form, origin);
        }),
      { parse: 'none' },
    )
    .get(samlContinuePath, ({ request, server, set }) =>
      finish(request, server, set, (actor, _origin, maxAge) => samlContinue(deps, actor, request, maxAge)),
    );
}

/** The biggest SAML POST read (a response with many group attributes is some tens of KB). */
export const SAML_BODY_LIMIT = 512 * 1024;

/** The posted form's string fields, or null past SAML_BODY_LIMIT bytes (counted as they arrive). */
async function boundedForm(request: Request): Promise<Record<string, string> | null> {
  if (Number(request.headers.get('content-length') ?? 0) > SAML_BODY_LIMIT) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > SAML_BODY_LIMIT) return null;
      chunks.push(chunk);
    }
  }
  const fields: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) fields[k] = v;
  return fields;
}
