import { authPolicy } from '../../auth/policy.ts';
import { tokenOf } from '../../auth/sessions.ts';
import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { siteOf } from './mails.ts';
import { addRoles, editIdentityProvider, removeRole } from './roles-service.ts';
import {
  beginResetPassword,
  completeResetPassword,
  config,
  getIdentityProviderAuthUrl,
  login,
  logout,
  register,
  session,
} from './service.ts';

/**
 * `POST /api/auth/*`: sign-in, sessions, password reset, roles (SPEC §2 auth routes, §4, §6, §7 auth).
 * The controllers here keep the HTTP parts: the session cookie, and the request's own origin for
 * links in emails when no PUBLIC_URL is set (outside production).
 */
export const authRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'auth', {
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
    session,
    register: (deps, actor, input, http) => register(deps, actor, input, siteOf(http.request)),
    beginResetPassword: (deps, actor, input, http) => beginResetPassword(deps, actor, input, siteOf(http.request)),
    completeResetPassword,
    getIdentityProviderAuthUrl: (deps, actor, input, http) =>
      getIdentityProviderAuthUrl(deps, actor, input, siteOf(http.request)),
    addRoles: (deps, actor, input, http) => addRoles(deps, actor, input, siteOf(http.request)),
    removeRole,
    editIdentityProvider,
  });
