import {
  acceptInvitation,
  addRoles,
  beginPasskeySetup,
  beginPasskeySignIn,
  beginResetPassword,
  beginTotpSetup,
  cancelInvitation,
  changePassword,
  completeResetPassword,
  config,
  declineInvitation,
  editIdentityProvider,
  enableUser,
  endOtherSessions,
  endSession,
  finishPasskeySetup,
  finishTotpSetup,
  getAccountStatus,
  getIdentityProviderAuthUrl,
  linkOrigin,
  listInvitations,
  listMyInvitations,
  listSecondFactors,
  listSessions,
  login,
  logout,
  regenerateRecoveryCodes,
  register,
  removeRole,
  removeSecondFactor,
  resetSecondFactors,
  type Site,
  session,
  siteOf,
  verifySecondFactor,
} from '../../areas/auth/index.ts';
import {
  approveCliSignIn,
  beginCliSignIn,
  pollCliSignIn,
  SSO_COOKIE,
  SSO_LOGIN_TTL_MS,
} from '../../areas/sso/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { authPolicy } from '../../sessions/policy.ts';
import { tokenOf } from '../../sessions/sessions.ts';
import { rpcArea } from '../area.ts';
import type { HttpExchange } from '../context.ts';

/** A service that needs the request's own origin (links in mails, the passkey relying party), given it. */
const withSite =
  <D, A, I, O>(service: (deps: D, actor: A, input: I, site: Site) => O) =>
  (deps: D, actor: A, input: I, http: HttpExchange) =>
    service(deps, actor, input, siteOf(http.request));

/**
 * `POST /api/auth/*`: sign-in, sessions, password reset, roles (SPEC §2 auth routes, §4, §6, §7 auth).
 * The controllers here keep the HTTP parts: the session cookie, and the request's own origin for
 * links in emails when no PUBLIC_URL is set (outside production). The patient's ways in are in
 * patient-auth.ts.
 */
export const authRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'auth', {
    changePassword,
    listSessions,
    endSession,
    endOtherSessions,
    getAccountStatus,
    enableUser,
    config,
    login: async (deps, actor, input, http) => {
      const { answer, session } = await login(deps, actor, input, { previousToken: tokenOf(http.request) });
      if (session) http.setCookie(authPolicy.sessionCookie, session.token, { maxAgeSeconds: session.maxAgeSeconds });
      return answer;
    },
    logout: async (deps, actor, input, http) => {
      const answer = await logout(deps, actor, input, { token: tokenOf(http.request) });
      http.clearCookie(authPolicy.sessionCookie);
      return answer;
    },
    verifySecondFactor: async (deps, actor, input, http) => {
      const { answer, session } = await verifySecondFactor(deps, actor, input, {
        token: tokenOf(http.request),
        site: siteOf(http.request),
      });
      if (session) http.setCookie(authPolicy.sessionCookie, session.token, { maxAgeSeconds: session.maxAgeSeconds });
      // A locked account's waiting session has ended: so does its cookie.
      else if (answer.reason === 'TooManyAttempts') http.clearCookie(authPolicy.sessionCookie);
      return answer;
    },
    beginPasskeySignIn: withSite(beginPasskeySignIn),
    listSecondFactors,
    beginTotpSetup,
    finishTotpSetup,
    beginPasskeySetup: withSite(beginPasskeySetup),
    finishPasskeySetup: withSite(finishPasskeySetup),
    removeSecondFactor,
    regenerateRecoveryCodes,
    resetSecondFactors,
    session,
    register: withSite(register),
    beginResetPassword: withSite(beginResetPassword),
    completeResetPassword,
    getIdentityProviderAuthUrl: async (deps, actor, input, http) => {
      const { answer, browserToken } = await getIdentityProviderAuthUrl(deps, actor, input, siteOf(http.request));
      // Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie would miss.
      if (browserToken)
        http.setCookie(SSO_COOKIE, browserToken, { maxAgeSeconds: SSO_LOGIN_TTL_MS / 1000, sameSite: 'lax' });
      return answer;
    },
    beginCliSignIn: (deps, actor, _input, http) =>
      beginCliSignIn(deps, actor, linkOrigin(deps, siteOf(http.request)) ?? siteOf(http.request).requestOrigin),
    approveCliSignIn: (deps, actor, input) => approveCliSignIn(deps, actor, input.userCode),
    pollCliSignIn: (deps, actor, input) => pollCliSignIn(deps, actor, input.deviceCode),
    addRoles: withSite(addRoles),
    removeRole,
    editIdentityProvider,
    listMyInvitations,
    acceptInvitation,
    declineInvitation,
    listInvitations,
    cancelInvitation,
  });
