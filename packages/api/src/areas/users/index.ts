import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { getUser, getUsersByRole, updateUser } from './service.ts';

/** `POST /api/users/*`: support users list, user details, names (SPEC §2 Support users, §7 users). */
export const usersRoutes = (deps: AppDeps) => rpcArea(deps, 'users', { getUsersByRole, getUser, updateUser });
