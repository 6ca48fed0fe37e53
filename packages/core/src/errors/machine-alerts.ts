import { type } from 'arktype';

import { alarmTemplateCodes, levels } from './levels.ts';

export { alarmTemplateCodes };

export const Level = type.enumerated(...levels);
export type Level = typeof Level.infer;

/**
 * The machine alert codes of SPEC §8 with their names, and the level we give each (the SPEC names
 * no levels): critical when the locker cannot serve patients or is at risk (power, jams, alarm,
 * shutdown); error when a part failed but collections may go on; warn for things staff should look
 * at soon; info for routine progress. EM_ codes are raised by lockers, MP_ codes by the product.
 */
export const machineAlerts = {
  EM_0001: { name: 'ItemUnclaimed', level: 'warn' },
  EM_0002: { name: 'CollectorNotEmptyAfterCalibration', level: 'error' },
  EM_0003: { name: 'MainsPowerFailure', level: 'critical' },
  EM_0004: { name: 'ScannerCalibrationFailure', level: 'error' },
  EM_0005: { name: 'AxisNotHomed', level: 'error' },
  EM_0006: { name: 'CollectorProblem', level: 'error' },
  EM_0007: { name: 'CollectorNotRaised', level: 'error' },
  EM_0008: { name: 'ActuatorError', level: 'error' },
  EM_0009: { name: 'ScissorMechanismStopped', level: 'critical' },
  EM_0010: { name: 'ScissorSituationOnCalibration', level: 'critical' },
  EM_0011: { name: 'ExcessCalibrationError', level: 'error' },
  EM_0012: { name: 'BootedDuringMainsFailure', level: 'critical' },
  EM_0013: { name: 'MachineShutdown', level: 'critical' },
  EM_0014: { name: 'BeamsFailedAfterDispense', level: 'error' },
  EM_0015: { name: 'CumulativeCalibrationErrors', level: 'warn' },
  EM_0016: { name: 'AlarmTriggered', level: 'critical' },
  EM_0017: { name: 'StartingScan', level: 'info' },
  EM_0018: { name: 'ScanComplete', level: 'info' },
  EM_0019: { name: 'MachineBootingUp', level: 'info' },
  EM_0020: { name: 'DuplicateBarcodeFound', level: 'warn' },
  EM_0021: { name: 'LocationFailedToScan', level: 'warn' },
  EM_0022: { name: 'BarcodeError', level: 'warn' },
  EM_0023: { name: 'PaymentHardwareNotInstalled', level: 'warn' },
  EM_0024: { name: 'PaymentHardwareFailure', level: 'error' },
  MP_0001: { name: 'TemperatureExcursion', level: 'error' },
  MP_0002: { name: 'InOrder', level: 'info' },
  MP_0003: { name: 'OutOfOrder', level: 'warn' },
  MP_0004: { name: 'Archived', level: 'info' },
  MP_0005: { name: 'Unarchived', level: 'info' },
  // Beyond SPEC §8's list: the product also raises these when a locker goes silent and comes back.
  MP_0006: { name: 'MachineOffline', level: 'warn' },
  MP_0007: { name: 'MachineOnline', level: 'info' },
  // Raised when wrong PINs at a keypad pass the keypad rule's alert count (docs/decisions/orders.md).
  MP_0008: { name: 'PinGuessing', level: 'warn' },
  // Raised when a locker reports (StatusNotification's slotsTotal) another number of slots than its machine has.
  MP_0009: { name: 'SlotCountMismatch', level: 'warn' },
  // Commands staff sent the locker (TriggerStatus, ChangeConfiguration, Reset), with its answer.
  MP_0010: { name: 'StatusRequested', level: 'info' },
  MP_0011: { name: 'ConfigurationChanged', level: 'info' },
  MP_0012: { name: 'RestartRequested', level: 'info' },
  // The steps of a critical alarm after it was raised (packages/core/src/machine/alarm.ts): on its machine's timeline.
  MP_0013: { name: 'AlarmAcknowledged', level: 'info' },
  MP_0014: { name: 'AlarmEscalated', level: 'info' },
  MP_0015: { name: 'AlarmResolved', level: 'info' },
} as const satisfies Record<string, { name: string; level: Level }>;

export type MachineAlertCode = keyof typeof machineAlerts;
export const machineAlertCodes = Object.keys(machineAlerts) as MachineAlertCode[];
export const MachineAlertCode = type.enumerated(...machineAlertCodes);

export const AlarmTemplateCode = type.enumerated(...alarmTemplateCodes);
export type AlarmTemplateCode = typeof AlarmTemplateCode.infer;

/**
 * Placeholders of alarm messages: `${machineAndBusiness}` ('Locker 1 at High Street Pharmacy'),
 * `${temperature}` (the average, e.g. '9.2°C') and `${supportArticle}` (the link to the fix).
 */
export const alarmPlaceholders = ['machineAndBusiness', 'temperature', 'supportArticle'] as const;

// biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder that renderTemplate fills in later.
const fix = 'Go to ${supportArticle} to find the fix.';

/**
 * The default wording of each alarm message (SPEC §8), used until support edits them. Each ends with
 * the link to the support article. Render with `renderTemplate`.
 */
export const defaultAlarmMessages: Record<AlarmTemplateCode, string> = {
  EM_0001: `An item has been left in the collector of \${machineAndBusiness}. The collector will need to be checked and cleared. ${fix}`,
  EM_0002: `The collector of \${machineAndBusiness} was not empty after calibration. The collector will need to be checked and cleared. ${fix}`,
  EM_0003: `There has been a power disruption at \${machineAndBusiness}. Please check your mains supply and reset your unit. ${fix}`,
  EM_0009: `\${machineAndBusiness} has a jam in its scissor mechanism, which prevents further collections. ${fix}`,
  EM_0010: `\${machineAndBusiness} found a jam in its scissor mechanism during calibration, which prevents further collections. ${fix}`,
  EM_0016: `The alarm of \${machineAndBusiness} has been triggered: the post box has been left open or someone has tried to gain access without entering the security code. ${fix}`,
  MP_0001: `The temperature of \${machineAndBusiness} has been out of range over the last 3 hours, with an average temperature of \${temperature}. ${fix}`,
};
