import { Elysia } from 'elysia';
import { NHS_LOGIN_COOKIE, nhsLoginCallback, nhsLoginCallbackPath } from '../areas/auth/index.ts';
import type { AppDeps } from '../context/deps.ts';
import { serializeCookie } from '../rpc/area.ts';
import { endPatientSessionByToken, PATIENT_COOKIE, patientTokenOf } from '../sessions/patient-sessions.ts';
import { providerReturn } from './provider-return.ts';

/**
 * `GET /api/auth/nhs-login/callback`: where NHS login sends the patient's browser back (the redirect
 * URI registered with NHS login). Signed in: the patient session cookie (ending any older one in this
 * browser) and a redirect to the order's page. Refused: the order's page with `?nhsLogin=<reason>`.
 * The one-time browser cookie is always cleared; never a 500 page in the middle of a login.
 */
export function nhsLoginRoutes(deps: AppDeps) {
  return new Elysia({ name: 'nhs-login' }).get(nhsLoginCallbackPath, (exchange) =>
    providerReturn(
      deps,
      exchange,
      { log: 'NHS login callback failed', location: '/p?nhsLogin=failed' },
      async ({ actor, publicOrigin, secure, cookies }) => {
        cookies.push(serializeCookie(NHS_LOGIN_COOKIE, '', secure, { maxAgeSeconds: 0, sameSite: 'lax' }));
        const outcome = await nhsLoginCallback(deps, actor, exchange.request, publicOrigin);
        if (outcome.session) {
          const previous = patientTokenOf(exchange.request);
          if (previous) await endPatientSessionByToken(deps.db, previous, deps.now());
          cookies.push(
            serializeCookie(PATIENT_COOKIE, outcome.session.token, secure, {
              maxAgeSeconds: outcome.session.maxAgeSeconds,
              sameSite: 'lax',
            }),
          );
        }
        return outcome.location;
      },
    ),
  );
}
