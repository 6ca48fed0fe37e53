import { listBags, reprocessBags } from '../../areas/bags/service.ts';
import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/bags/*`: bags and machine contents. */
export const bagsRoutes = (deps: AppDeps) => rpcArea(deps, 'bags', { listBags, reprocessBags });
