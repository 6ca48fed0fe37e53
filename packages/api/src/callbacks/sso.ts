import { Elysia } from 'elysia';
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
import { serializeCookie } from '../rpc/area.ts';
import { authPolicy } from '../sessions/policy.ts';
import { type Exchange, providerReturn } from './provider-return.ts';

/**
 * `GET /api/auth/callback` (SPEC §7 auth.callback): where an OpenID provider sends the browser back.
 * Signed in: the session cookie and a redirect to the page the user asked for. Refused: a redirect to
 * /auth/login?sso=<reason>, where the console says why. The one-time browser cookie is cleared unless the
 * outcome keeps it. SAML: `POST /sso/saml/{id}/acs` checks the IdP's response and sends the browser to
 * `GET /sso/saml/continue`, which signs in only the browser that started (see flow.ts).
 */
export function ssoRoutes(deps: AppDeps) {
  const finish = (
    exchange: Exchange,
    run: (actor: Actor, publicOrigin: string, maxAge: number) => Promise<CallbackOutcome>,
  ) =>
    providerReturn(
      deps,
      exchange,
      { log: 'single sign-on callback failed', location: '/auth/login?sso=provider' },
      async ({ actor, publicOrigin, secure, cookies }) => {
        const outcome = await run(actor, publicOrigin, authPolicy.sessionAbsoluteMs / 1000);
        if (!outcome.keepBrowserCookie) {
          cookies.push(serializeCookie(SSO_COOKIE, '', secure, { maxAgeSeconds: 0, sameSite: 'lax' }));
        }
        if (outcome.ok && outcome.session) {
          cookies.push(
            serializeCookie(authPolicy.sessionCookie, outcome.session.token, secure, {
              maxAgeSeconds: outcome.session.maxAgeSeconds,
            }),
          );
        }
        return outcome.ok ? outcome.location : `/auth/login?sso=${outcome.reason}`;
      },
    );
  return new Elysia({ name: 'sso' })
    .get(callbackPath, (exchange) =>
      finish(exchange, (actor, origin, maxAge) => ssoCallback(deps, actor, exchange.request, origin, maxAge)),
    )
    .post(
      '/sso/saml/:idpId/acs',
      (exchange) =>
        finish(exchange, async (actor, origin) => {
          // Read by us, at most SAML_BODY_LIMIT: a huge form is refused before any XML parsing.
          const form = await boundedForm(exchange.request);
          return samlCallback(deps, actor, exchange.request, exchange.params.idpId, form, origin);
        }),
      { parse: 'none' },
    )
    .get(samlContinuePath, (exchange) =>
      finish(exchange, (actor, _origin, maxAge) => samlContinue(deps, actor, exchange.request, maxAge)),
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
