import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
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

/** `POST /api/auth/*`: sign-in, sessions, password reset, roles (SPEC §2 auth routes, §4, §6, §7 auth). */
export const authRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'auth', {
    config,
    login,
    logout,
    session,
    register,
    beginResetPassword,
    completeResetPassword,
    getIdentityProviderAuthUrl,
    addRoles,
    removeRole,
    editIdentityProvider,
  });
