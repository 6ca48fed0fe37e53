import { machineAlerts } from '@medlocker/core/locker';

// The locker protocol, from core's entry for lockers (not its index, which builds every RPC schema).
export * from '@medlocker/core/locker';

/** True when a code is in the catalogue of machine alerts. */
export const machineAlertCode = (code: string): boolean => Object.hasOwn(machineAlerts, code);
