import {
  changeConfiguration,
  createMachine,
  fleetSummary,
  getMachine,
  isMachineAvailable,
  listEvents,
  listMachineStatus,
  listMachines,
  resetLocker,
  toggleArchive,
  toggleOutOfOrderStatus,
  triggerStatus,
  updateMachine,
} from '../../areas/machines/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/machines/*`: the support console's machine pages. */
export const machinesRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'machines', {
    createMachine,
    getMachine,
    listMachines,
    updateMachine,
    toggleArchive,
    toggleOutOfOrderStatus,
    listMachineStatus,
    listEvents,
    fleetSummary,
    isMachineAvailable,
    triggerStatus,
    changeConfiguration,
    resetLocker,
  });
