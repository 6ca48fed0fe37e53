import { Elysia } from 'elysia';
import { linkOrigin, NHS_LOGIN_COOKIE, nhsLoginCallback, nhsLoginCallbackPath, siteOf } from '../areas/auth/index.ts';
import type { Actor } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { requestMeta } from '../http/request-meta.ts';
import { originOf } from '../rpc/actor-of.ts';
import { serializeCookie } from '../rpc/area.ts';
import { endPatientSessionByToken, PATIENT_COOKIE, patientTokenOf } from '../sessions/patient-sessions.ts';

/**
 * `GET /api/auth/nhs-login/callback`: where NHS login sends the patient's browser back (the redirect
 * URI registered with NHS login). Signed in: the patient session cookie (ending any older one in this
 * browser) and a redirect to the order's page. Refused: the order's page with `?nhsLogin=<reason>`.
 * The one-time browser cookie is always cleared; never a 500 page in the middle of a login.
 */
export function nhsLoginRoutes(deps: AppDeps) {
  return new Elysia({ name: 'nhs-login' }).get(nhsLoginCallbackPath, async ({ request, server, set }) => {
    const meta = requestMeta(request, server, deps.config.trustProxy);
    const actor: Actor = { kind: 'anonymous', origin: originOf(meta, 'portal') };
    const publicOrigin = linkOrigin(deps, siteOf(request)) ?? new URL(request.url).origin;
    const cookies = [serializeCookie(NHS_LOGIN_COOKIE, '', meta.secure, { maxAgeSeconds: 0, sameSite: 'lax' })];
    let location: string;
    try {
      const outcome = await nhsLoginCallback(deps, actor, request, publicOrigin);
      location = outcome.location;
      if (outcome.session) {
        const previous = patientTokenOf(request);
        if (previous) await endPatientSessionByToken(deps.db, previous, deps.now());
        cookies.push(
          serializeCookie(PATIENT_COOKIE, outcome.session.token, meta.secure, {
            maxAgeSeconds: outcome.session.maxAgeSeconds,
            sameSite: 'lax',
          }),
        );
      }
    } catch (error) {
      deps.logger.error('NHS login callback failed', {
        requestId: meta.requestId,
        error: error instanceof Error ? error.message : String(error),
      });
      location = '/p?nhsLogin=failed';
    }
    set.status = 303;
    set.headers.location = location;
    set.headers['cache-control'] = 'no-store';
    set.headers['set-cookie'] = cookies;
    return '';
  });
}
