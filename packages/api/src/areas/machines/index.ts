export { ESCALATE_JOB, escalationStepKey } from './alarm-raise.ts';
export { acknowledgeAlarm, escalateAlarm, listAlarms, resolveAlarm, resolveByLocker } from './alarms.ts';
export { changeConfiguration, lockerOffline, lockerSilent, resetLocker, triggerStatus } from './commands.ts';
export { publishRecorded, type RecordedEvent, recordMachineEvent } from './events.ts';
export { fleetSummary, startDemoFleet } from './fleet.ts';
export { applyLockerEventOnce, MachineGone } from './locker-events.ts';
export { existingMachines, insertReadingsBatch, insertStatus, lastStoredSeq } from './locker-repository.ts';
export { auditMachine } from './machine-audit.ts';
export { alertPinGuessing } from './pin-guessing.ts';
export { type LockerMachine, markOnline, sweepOffline } from './presence.ts';
export { findMachine, lockMachine, type MachineRecord, revokeCredentials, toMachine } from './repository.ts';
export {
  changeMachine,
  createMachine,
  getMachine,
  insertMachine,
  isMachineAvailable,
  listEvents,
  listMachineStatus,
  listMachines,
  pageMachines,
  requireMachine,
  updateMachine,
} from './service.ts';
export { noteReportedSlots } from './slots.ts';
export { updateTemperatureStatuses } from './temperature.ts';
export { toggleArchive, toggleOutOfOrderStatus } from './toggles.ts';
