import { create, get, getTestMachineBags, list, remove, update } from '../../areas/test-machines/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/testMachines/*`: machines for QA, paired at once, used by locker-sim. */
export const testMachinesRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'testMachines', { create, get, list, update, remove, getTestMachineBags });
