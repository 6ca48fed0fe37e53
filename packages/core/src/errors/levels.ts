/*
 * Machine alerts' constants without a schema (the schemas are machine-alerts.ts's): the console's
 * dashboard reads these, and importing the schema library with them would weigh 40 KB on it.
 */

/** Severity of a machine event or notification (SPEC §4). */
export const levels = ['critical', 'error', 'info', 'warn'] as const;

/** The codes with an alarm message template (SPEC §3). */
export const alarmTemplateCodes = [
  'EM_0001',
  'EM_0002',
  'EM_0003',
  'EM_0009',
  'EM_0010',
  'EM_0016',
  'MP_0001',
] as const;
