import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { listBusinessesInfo } from './service.ts';

/** `POST /api/businesses/*`: for now only the picker list (Add role); the rest of the area comes with the estate. */
export const businessesRoutes = (deps: AppDeps) => rpcArea(deps, 'businesses', { listBusinessesInfo });
