import { machineAlerts } from '@medlocker/core';

// The locker protocol from core. Until core's index re-exports it, reach it by path: one line to change.
export * from '../../core/src/protocol/index.ts';

/** True when a code is in the catalogue of machine alerts. */
export const machineAlertCode = (code: string): boolean => Object.hasOwn(machineAlerts, code);
