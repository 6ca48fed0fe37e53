import { type } from 'arktype';
import { PatientLanguage } from '../i18n/language.ts';
import { LabelSize } from '../order/label.ts';

/** The message gateways a business can send SMS through (SPEC §9). */
export const smsGateways = ['aws', 'messagebird', 'thesmsworks'] as const;
export const SmsGateway = type.enumerated(...smsGateways);
export type SmsGateway = typeof SmsGateway.infer;

/**
 * Where a pharmacy is. Only England has NHS prescription charges: Wales, Scotland and Northern Ireland
 * charge nothing (REFERENCE.md), so their businesses' orders never carry one.
 */
export const nations = ['england', 'wales', 'scotland', 'northernIreland'] as const;
export const Nation = type.enumerated(...nations);
export type Nation = typeof Nation.infer;

/** The nations as people name them. */
export const nationNames: Record<Nation, string> = {
  england: 'England',
  wales: 'Wales',
  scotland: 'Scotland',
  northernIreland: 'Northern Ireland',
};

/** Whether NHS prescription charges exist where the pharmacy is. */
export const nationHasPrescriptionCharges = (nation: Nation): boolean => nation === 'england';

/**
 * A business's feature switches (SPEC §3). `defaultCollectionWindow` is in days. `nation` is where the
 * pharmacy is: outside England `charges.enabled` is always false (no NHS prescription charge there).
 */
export const BusinessFeatureSettings = type({
  autoBarcodes: { autoGenerate: 'boolean', autoPrint: 'boolean' },
  charges: { enabled: 'boolean' },
  nation: Nation,
  retailCharges: { enabled: 'boolean' },
  displayIdField: { name: 'string', required: 'boolean', validateNhsNumber: 'boolean' },
  /** The bag labels' size: the label printer the pharmacy uses. */
  labels: { size: LabelSize },
  enableWhatsApp: 'boolean',
  /** Patients may prove who they are with NHS login (needs NHS_LOGIN_* and the display id as NHS number). */
  nhsLogin: { enabled: 'boolean' },
  onlineSignups: { enabled: 'boolean', url: 'string | null' },
  orderCollection: { defaultCollectionWindow: 'number.integer > 0' },
  qrCodeIntegration: { enabled: 'boolean' },
  sendOnlyEmailIfPossible: 'boolean',
  sendOrderRemovedSms: 'boolean',
  sendOrderExpiringSms: 'boolean',
  /** Checked with `SmsSenderId` when set. */
  smsSenderName: 'string | null',
  smsGateway: SmsGateway,
  temperatureSettings: { enableTemperatureAlerts: 'boolean' },
  /** Whether the business's users must sign in with a second factor. */
  secondFactorRequired: 'boolean',
  /** The language its patients' page and messages are in until a patient chooses (en, cy, bilingual). */
  patientLanguage: PatientLanguage,
  /** Minutes an unacknowledged critical alarm waits before each escalation step (machine/alarm-rules.ts). */
  alarmEscalationMinutes: 'number.integer > 0',
});
export type BusinessFeatureSettings = typeof BusinessFeatureSettings.infer;
