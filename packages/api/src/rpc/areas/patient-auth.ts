import { AppError } from '@medlocker/core';
import {
  addPatientMobile,
  endPatientSession,
  linkOrigin,
  listPatientMobile,
  NHS_LOGIN_COOKIE,
  NHS_LOGIN_TTL_MS,
  patientSessionInfo,
  patientSignInOptions,
  removePatientMobile,
  siteOf,
  startNhsLogin,
  verifyPatient,
  verifySms,
  verifySmsCode,
} from '../../areas/auth/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import {
  endPatientSessionByToken,
  PATIENT_COOKIE,
  patientPrincipalOf,
  patientTokenOf,
} from '../../sessions/patient-sessions.ts';
import { authMessages } from '../../sessions/policy.ts';
import { rpcArea } from '../area.ts';
import type { HttpExchange } from '../context.ts';

/**
 * Hands a proven patient their session cookie (Lax: see auth/patient-sessions.ts), ending any older one.
 * `prove` starts only once the old cookie is read: a promise made earlier would be left unhandled if
 * anything in between threw, and an unhandled rejection ends the Bun process.
 */
async function withPatientCookie<T extends { session: { token: string; maxAgeSeconds: number }; info: unknown }>(
  deps: AppDeps,
  http: HttpExchange,
  prove: () => Promise<T>,
): Promise<T['info']> {
  const previous = patientTokenOf(http.request);
  const { session, info } = await prove();
  if (previous) await endPatientSessionByToken(deps.db, previous, deps.now());
  http.setCookie(PATIENT_COOKIE, session.token, { maxAgeSeconds: session.maxAgeSeconds, sameSite: 'lax' });
  return info;
}

/**
 * `POST /api/auth/*` for patients: proving who they are for an order (date of birth, a texted code, NHS
 * login), their session and their mobiles. The controllers keep the HTTP parts: the patient's cookie.
 */
export const patientAuthRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'auth', {
    verifyPatient: (deps, actor, input, http) => withPatientCookie(deps, http, () => verifyPatient(deps, actor, input)),
    patientSignInOptions,
    startNhsLogin: async (deps, actor, input, http) => {
      const origin = linkOrigin(deps, siteOf(http.request)) ?? siteOf(http.request).requestOrigin;
      const { answer, browserToken } = await startNhsLogin(deps, actor, input, origin);
      // Lax: NHS login's redirect back is a cross-site navigation, which a Strict cookie would miss.
      http.setCookie(NHS_LOGIN_COOKIE, browserToken, { maxAgeSeconds: NHS_LOGIN_TTL_MS / 1000, sameSite: 'lax' });
      return answer;
    },
    verifySms,
    verifySmsCode: (deps, actor, input, http) => withPatientCookie(deps, http, () => verifySmsCode(deps, actor, input)),
    patientSession: async (deps, _actor, _input, http) => {
      // rpc/area.ts let the call through only with a live patient session: read it again for its times.
      const principal = await patientPrincipalOf(deps.db, http.request, deps.now());
      if (!principal) throw new AppError('UNAUTHENTICATED', authMessages.notLoggedIn);
      return patientSessionInfo(principal);
    },
    listPatientMobile,
    addPatientMobile,
    removePatientMobile,
    endPatientSession: async (deps, _actor, _input, http) => {
      const answer = await endPatientSession(deps, patientTokenOf(http.request));
      http.clearCookie(PATIENT_COOKIE, { sameSite: 'lax' });
      return answer;
    },
  });
