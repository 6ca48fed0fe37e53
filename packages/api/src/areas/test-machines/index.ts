import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { create, get, getTestMachineBags, list, remove, update } from './service.ts';

/** `POST /api/testMachines/*`: machines for QA, paired at once, used by locker-sim. */
export const testMachinesRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'testMachines', { create, get, list, update, remove, getTestMachineBags });
