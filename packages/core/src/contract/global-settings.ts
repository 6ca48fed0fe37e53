import { type } from 'arktype';
import { AlarmTemplateCode, alarmPlaceholders, alarmTemplateCodes } from '../errors/machine-alerts.ts';
import { maxChargePence } from '../money/charge.ts';
import { GlobalSettings, maxInactiveAccountDays } from '../settings/global-settings.ts';
import { placeholdersIn } from '../settings/sms-templates.ts';
import { anyKey, eachGiven, eachKey } from '../validation/by-key.ts';
import { validationMessage } from '../validation/catalogue.ts';
import { Bool, positiveIntegerUpTo } from '../validation/general.ts';
import { upTo } from '../validation/string-limits.ts';
import { defineArea, supportOnly } from './define.ts';
import { withoutInput } from './method-builders.ts';

/*
 * Product-wide settings (SPEC §2 /globalSettings and /alarmMessageTemplates, §3, §7 globalSettings).
 * The NHS prescription charge travels in pence: the console's form reads pounds with core's
 * `GlobalSettingsInput` ('9.80' → 980) and sends the pence. Alarm message templates fall back to
 * core's `defaultAlarmMessages` (SPEC §8 wording) per code until support rewords them.
 */

/** Longest alarm message accepted. */
export const alarmTemplateMaxLength = 1000;

/** The problems of one alarm template: blank, too long, or a placeholder the hub cannot fill. */
export function alarmTemplateProblem(
  template: string,
): { id: 'REQUIRED' | 'INVALID_LENGTH' | 'UNKNOWN_PLACEHOLDER'; message: string } | null {
  if (template.trim() === '') return { id: 'REQUIRED', message: 'Please enter a value' };
  if (template.length > alarmTemplateMaxLength)
    return { id: 'INVALID_LENGTH', message: validationMessage.maxLength(alarmTemplateMaxLength) };
  const unknown = placeholdersIn(template).find((p) => !(alarmPlaceholders as readonly string[]).includes(p));
  if (unknown !== undefined)
    return { id: 'UNKNOWN_PLACEHOLDER', message: validationMessage.unknownPlaceholder(unknown) };
  return null;
}

/** One alarm template as sent; longer than allowed is INVALID_LENGTH before its placeholders are read. */
const AlarmTemplate = upTo(alarmTemplateMaxLength);

/** Alarm templates to save, by code; codes left out keep their wording. */
export const AlarmTemplatesChanges = type(anyKey(alarmTemplateCodes, AlarmTemplate)).narrow(
  eachGiven(alarmTemplateCodes, (_code, template) => alarmTemplateProblem(template)),
);

const AllAlarmTemplates = type(eachKey(alarmTemplateCodes, 'string')) satisfies {
  infer: Record<AlarmTemplateCode, string>;
};

const AlarmTemplatesResult = type({
  /** Every code: support's wording, or the default. */
  templates: AllAlarmTemplates,
  defaults: AllAlarmTemplates,
  /** The codes support has reworded. */
  customised: AlarmTemplateCode.array(),
  /** The placeholders a template may use. */
  placeholders: 'string[]',
});

const GlobalSettingsResult = type({
  /** null until first saved. */
  settings: GlobalSettings.or('null'),
  updated: 'number | null',
});

export const globalSettings = defineArea({
  getGlobalSettings: withoutInput({
    output: GlobalSettingsResult,
    access: supportOnly,
    summary:
      'The global settings: the NHS prescription charge in pence, and the days after which an unused account is disabled.',
  }),
  createOrUpdateGlobalSettings: {
    input: type({
      nhsPrescriptionCharge: positiveIntegerUpTo(maxChargePence),
      /** Left out: unchanged (90 until first set). */
      'inactiveAccountDays?': positiveIntegerUpTo(maxInactiveAccountDays),
      /** Left out: unchanged (on until set). */
      'supportSecondFactorRequired?': Bool,
    }),
    output: GlobalSettingsResult,
    access: supportOnly,
    summary:
      'Sets the NHS prescription charge, in pence (a whole number from 1 to 1000000), and the days without a sign-in after which a staff account is disabled (1 to 3650; 90 by default), and whether support staff must have a second factor (true by default).',
  },
  getAlarmMessageTemplates: withoutInput({
    output: AlarmTemplatesResult,
    access: supportOnly,
    summary: 'The alarm message of each of the 7 templated codes (as support worded it, or the default).',
  }),
  updateAlarmMessageTemplates: {
    input: type({
      templates: AlarmTemplatesChanges,
      /** Codes to return to the default wording. */
      'reset?': AlarmTemplateCode.array(),
    }),
    output: AlarmTemplatesResult,
    access: supportOnly,
    summary:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: names the placeholders.
      'Rewords alarm messages: each non-empty; placeholders ${machineAndBusiness}, ${temperature}, ${supportArticle}.',
  },
});
