import { business, create, get, resendCodes, verify } from '../../areas/patient-sign-ups/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { cookieToken } from '../../sessions/tokens.ts';
import { rpcArea } from '../area.ts';

/**
 * The cookie of an online sign-up: HttpOnly (page script never sees the token), SameSite=Strict (the
 * page calls its own origin; nothing arrives from elsewhere), 24 hours.
 */
export const SIGN_UP_COOKIE = 'medlocker_signup';

/** The sign-up token of the request's cookie, if it has one (a malformed one is none). */
export const signUpTokenOf = (request: Request): string | null => cookieToken(request, SIGN_UP_COOKIE);

/**
 * `POST /api/patientSignUps/*`: online sign-ups from the patient page, public. The controllers keep the
 * cookie: `create` sets it, the others read it and name no sign-up of their own.
 */
export const patientSignUpsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'patientSignUps', {
    business,
    create: async (deps, actor, input, http) => {
      const { answer, access } = await create(deps, actor, input, signUpTokenOf(http.request));
      http.setCookie(SIGN_UP_COOKIE, access.token, { maxAgeSeconds: access.maxAgeSeconds });
      return answer;
    },
    get: (deps, _actor, _input, http) => get(deps, signUpTokenOf(http.request)),
    verify: (deps, actor, input, http) => verify(deps, actor, input, signUpTokenOf(http.request)),
    resendCodes: (deps, actor, input, http) => resendCodes(deps, actor, input, signUpTokenOf(http.request)),
  });
