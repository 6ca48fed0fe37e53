import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { listGroupsInfo } from './service.ts';

/** `POST /api/groups/*`: for now only the picker list (Add role); the rest of the area comes with the estate. */
export const groupsRoutes = (deps: AppDeps) => rpcArea(deps, 'groups', { listGroupsInfo });
