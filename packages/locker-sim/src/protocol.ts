import { machineAlerts } from '@medlocker/core';

// The locker protocol, from core.
export * from '@medlocker/core';

/** True when a code is in the catalogue of machine alerts. */
export const machineAlertCode = (code: string): boolean => Object.hasOwn(machineAlerts, code);
