import { type } from 'arktype';

/** The message gateways a business can send SMS through (SPEC §9). */
export const smsGateways = ['aws', 'messagebird', 'thesmsworks'] as const;
export const SmsGateway = type.enumerated(...smsGateways);
export type SmsGateway = typeof SmsGateway.infer;

/** A business's feature switches (SPEC §3). `defaultCollectionWindow` is in days. */
export const BusinessFeatureSettings = type({
  autoBarcodes: { autoGenerate: 'boolean', autoPrint: 'boolean' },
  charges: { enabled: 'boolean' },
  retailCharges: { enabled: 'boolean' },
  displayIdField: { name: 'string', required: 'boolean', validateNhsNumber: 'boolean' },
  enableWhatsApp: 'boolean',
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
});
export type BusinessFeatureSettings = typeof BusinessFeatureSettings.infer;
