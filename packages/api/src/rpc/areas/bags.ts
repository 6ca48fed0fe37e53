import { listBags, listBagsToRemove, reprocessBags } from '../../areas/bags/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/bags/*`: bags and machine contents. */
export const bagsRoutes = (deps: AppDeps) => rpcArea(deps, 'bags', { listBags, listBagsToRemove, reprocessBags });
