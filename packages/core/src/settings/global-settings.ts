import { type } from 'arktype';
import type { AlarmTemplateCode } from '../errors/machine-alerts.ts';
import { Charge } from '../money/charge.ts';

/** Days without a sign-in after which a staff account is disabled, until support sets another number. */
export const defaultInactiveAccountDays = 90;
/** The most days support may set (the database checks the same range). */
export const maxInactiveAccountDays = 3650;

/**
 * Product-wide settings (SPEC §3): the NHS prescription charge per item, in pence; after how many days
 * without a sign-in a staff account is disabled (issue 37 §2, docs/decisions/auth.md).
 */
export const GlobalSettings = type({
  nhsPrescriptionCharge: 'number.integer > 0',
  inactiveAccountDays: 'number.integer > 0',
  /** Whether support staff must sign in with a second factor (on until support turns it off). */
  supportSecondFactorRequired: 'boolean',
});
export type GlobalSettings = typeof GlobalSettings.infer;

/** The alarm message templates support can reword, by code; a code left out uses the default. */
export const AlarmMessageTemplates = type({
  'EM_0001?': 'string',
  'EM_0002?': 'string',
  'EM_0003?': 'string',
  'EM_0009?': 'string',
  'EM_0010?': 'string',
  'EM_0016?': 'string',
  'MP_0001?': 'string',
}) satisfies { infer: Partial<Record<AlarmTemplateCode, string>> };
export type AlarmMessageTemplates = typeof AlarmMessageTemplates.infer;

/**
 * The global settings form (SPEC §5): the NHS prescription charge typed in pounds ('9.80'), required,
 * at most 2 decimals; parsed to the pence `GlobalSettings` stores.
 */
export const GlobalSettingsInput = type({ nhsPrescriptionCharge: Charge });
export type GlobalSettingsInput = typeof GlobalSettingsInput.inferIn;
