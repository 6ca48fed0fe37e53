export { publishRecorded, type RecordedEvent, recordMachineEvent } from './events.ts';
export { fleetSummary, startDemoFleet } from './fleet.ts';
export {
  claimEvent,
  existingMachines,
  insertReadingsBatch,
  insertStatus,
  lastStoredSeq,
  machineRow,
  markSilentOffline,
  saveResult,
  storedResult,
  temperatureAlertsOn,
  touchOnline,
  updateTemperatureAverages,
} from './hub-repository.ts';
export {
  findMachine,
  listMachineRows,
  lockMachine,
  type MachineRow,
  revokeCredentials,
  toMachine,
} from './repository.ts';
export {
  changeMachine,
  createMachine,
  getMachine,
  insertMachine,
  isMachineAvailable,
  listEvents,
  listMachineStatus,
  listMachines,
  requireMachine,
  toggleArchive,
  toggleOutOfOrderStatus,
  updateMachine,
} from './service.ts';
