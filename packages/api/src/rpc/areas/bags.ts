import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../area.ts';
import { listBags, reprocessBags } from '../../areas/bags/service.ts';

/** `POST /api/bags/*`: bags and machine contents. */
export const bagsRoutes = (deps: AppDeps) => rpcArea(deps, 'bags', { listBags, reprocessBags });
