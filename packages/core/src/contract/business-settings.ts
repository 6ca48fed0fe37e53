// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the content of the default templates.
import { type } from 'arktype';
import { Locale, PatientLanguage } from '../i18n/language.ts';
import { defaultAlarmEscalationMinutes, maxAlarmEscalationMinutes } from '../machine/alarm-rules.ts';
import { defaultLabelSize, LabelSize } from '../order/label.ts';
import { maxCollectionWindowDays } from '../order/transitions.ts';
import {
  BusinessFeatureSettings,
  Nation,
  SmsGateway,
  type SmsGateway as SmsGatewayId,
} from '../settings/feature-settings.ts';
import { SmsSenderId } from '../settings/sms-sender-id.ts';
import { SmsTemplateKey, SmsTemplates, smsTemplateKeys } from '../settings/sms-templates.ts';
import { eachGiven, eachKey } from '../validation/by-key.ts';
import { validationMessage } from '../validation/catalogue.ts';
import { Bool, integerAtLeast, Required } from '../validation/general.ts';
import { reject } from '../validation/rule.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, staff, supportOnly } from './define.ts';
import { byBusinessId } from './method-builders.ts';

/*
 * A business's settings (SPEC §2 /businesses/{id}/settings, §3 Business feature settings and SMS
 * templates, §7 businessSettings). Feature settings are what the pharmacy may one day edit itself;
 * controlled settings (gateway, WhatsApp, QR-code integration) change what the business costs us or
 * which contracts it needs, so only support staff set them. Reads return the full effective settings:
 * stored values over the defaults below, field by field. Archived businesses are read-only (409).
 */

/** Default collection window in days, and the smallest allowed (SPEC §5 'minimum integer'). */
export const collectionWindowDays = { min: 1, default: 2 } as const;

/** The gateways' names as people read them (SPEC §9). */
export const smsGatewayNames: Record<SmsGatewayId, string> = {
  aws: 'AWS',
  messagebird: 'MessageBird',
  thesmsworks: 'The SMS Works',
};

/** The settings only support staff control (see docs/decisions/businesses.md, Settings). */
export const controlledSettingKeys = ['smsGateway', 'enableWhatsApp', 'qrCodeIntegration'] as const;
export type ControlledSettingKey = (typeof controlledSettingKeys)[number];

/** What a business gets until its settings are saved. */
export const defaultFeatureSettings: BusinessFeatureSettings = {
  autoBarcodes: { autoGenerate: false, autoPrint: false },
  charges: { enabled: false },
  nation: 'england',
  retailCharges: { enabled: false },
  // The patients area reads this jsonb shape (areas/patients/rules.ts); keep its defaults equal.
  displayIdField: { name: 'Patient ID', required: true, validateNhsNumber: false },
  labels: { size: defaultLabelSize },
  enableWhatsApp: false,
  nhsLogin: { enabled: false },
  onlineSignups: { enabled: false, url: null },
  orderCollection: { defaultCollectionWindow: collectionWindowDays.default },
  qrCodeIntegration: { enabled: false },
  sendOnlyEmailIfPossible: false,
  sendOrderRemovedSms: true,
  sendOrderExpiringSms: true,
  smsSenderName: null,
  smsGateway: 'aws',
  // The machine hub sends temperature alarms unless this is false (hubs/machine/store.ts).
  temperatureSettings: { enableTemperatureAlerts: true },
  // Read by the sign-in policy (api areas/auth/second-factor-repository.ts): keep the default equal.
  secondFactorRequired: false,
  patientLanguage: 'en',
  alarmEscalationMinutes: defaultAlarmEscalationMinutes,
};

/** The controlled part of the settings. */
export const ControlledSettings = BusinessFeatureSettings.pick(...controlledSettingKeys);
export type ControlledSettings = typeof ControlledSettings.infer;

// An http(s) URL a patient can open; blank is not a URL.
const isWebUrl = (s: string) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol);

/**
 * A controlled setting sent with the feature settings: refused with a message saying where it is set,
 * rather than dropped (or reported as merely unknown).
 */
const controlledHere = type('unknown').narrow((_, ctx) =>
  reject(
    ctx,
    'UNKNOWN_FIELD',
    `${String(ctx.path.at(-1))} is a controlled setting: support staff change it with updateBusinessControlledSettings`,
  ),
);

/** Changes to the feature settings: only the top-level keys given are replaced. */
export const FeatureSettingsChanges = type({
  'smsGateway?': controlledHere,
  'enableWhatsApp?': controlledHere,
  'qrCodeIntegration?': controlledHere,
  'autoBarcodes?': { autoGenerate: Bool, autoPrint: Bool },
  'charges?': { enabled: Bool },
  'nation?': Nation.configure({ message: 'Choose England, Wales, Scotland or Northern Ireland' }),
  'retailCharges?': { enabled: Bool },
  'displayIdField?': {
    name: upTo(50, Required),
    required: Bool,
    validateNhsNumber: Bool,
  },
  'labels?': { size: LabelSize.configure({ message: 'Choose the 62 mm roll or 4 × 6 inch labels' }) },
  'nhsLogin?': { enabled: Bool },
  'onlineSignups?': type({ enabled: Bool, url: upTo(stringLimits.url).or('null') }).narrow((s, ctx) => {
    const url = s.url?.trim() ? s.url.trim() : null;
    if (url !== null && !isWebUrl(url)) return reject(ctx, 'INVALID_FORMAT', undefined, [...ctx.path, 'url']);
    if (s.enabled && url === null) return reject(ctx, 'REQUIRED', undefined, [...ctx.path, 'url']);
    return true;
  }),
  'orderCollection?': { defaultCollectionWindow: integerAtLeast(collectionWindowDays.min, maxCollectionWindowDays) },
  'sendOnlyEmailIfPossible?': Bool,
  'sendOrderRemovedSms?': Bool,
  'sendOrderExpiringSms?': Bool,
  /** null: the gateway's default sender. */
  'smsSenderName?': SmsSenderId.or('null'),
  'temperatureSettings?': { enableTemperatureAlerts: Bool },
  'secondFactorRequired?': Bool,
  'patientLanguage?': PatientLanguage.configure({ message: 'Choose English, Welsh or both (Welsh first)' }),
  'alarmEscalationMinutes?': integerAtLeast(1, maxAlarmEscalationMinutes),
});
export type FeatureSettingsChanges = typeof FeatureSettingsChanges.infer;

/** Changes to the controlled settings: only the keys given are replaced. */
export const ControlledSettingsChanges = type({
  'smsGateway?': SmsGateway.configure({ message: 'Choose AWS, MessageBird or The SMS Works' }),
  'enableWhatsApp?': Bool,
  'qrCodeIntegration?': { enabled: Bool },
});
export type ControlledSettingsChanges = typeof ControlledSettingsChanges.infer;

/**
 * The wording a business's patients get until it words its own (SPEC §3 SMS templates). Each one
 * passes `smsTemplateErrors`; the order-ready message fits one 160-character page with typical values.
 */
export const defaultSmsTemplates: Record<SmsTemplateKey, string> = {
  machineBackInOrder: '${machineAndBusiness} is working again. You can collect your order there as usual.',
  machineOutOfOrder:
    '${machineAndBusiness} is out of order for now. Please contact ${businessName} about collecting your order.',
  orderReady: 'Your order from ${businessName} is ready at ${machineName}. PIN: ${pin}. Please collect by ${expires}.',
  orderUpdated: 'Your order from ${businessName} has changed. New PIN: ${pin}. Please collect by ${expires}.',
  orderRemoved: 'Your order has been taken out of ${machineAndBusiness}. Please contact ${businessName}.',
  orderExpiring: 'Your order at ${machineAndBusiness} is still waiting. Please collect it by ${expires}.',
  paymentRequired: 'Your order from ${businessName} needs paying before you collect it. Pay here: ${portal}',
  orderCollected: 'Thank you for collecting your order from ${machineAndBusiness}.',
};

/** Longest template accepted: 6 SMS pages. */
export const smsTemplateMaxLength = 960;

/** Templates to save: each given one non-empty, at most 6 pages, with SPEC §5's placeholders. */
export const SmsTemplatesChanges = SmsTemplates.narrow(
  eachGiven(smsTemplateKeys, (_key, template) => {
    if (template.trim() === '') return { id: 'REQUIRED' };
    if (template.length > smsTemplateMaxLength)
      return { id: 'INVALID_LENGTH', message: validationMessage.maxLength(smsTemplateMaxLength) };
    return null;
  }),
);

const AllSmsTemplates = type(eachKey(smsTemplateKeys, 'string'));

const BusinessId = Id;

/** Whether the business is archived: its settings are then read-only. */
const Archived = 'boolean';

const SmsTemplatesResult = type({
  businessId: 'string',
  /** The language of these templates (each language has its own eight). */
  language: Locale,
  /** Every key: the business's wording, or the default. */
  templates: AllSmsTemplates,
  defaults: AllSmsTemplates,
  /** The keys the business has worded itself. */
  customised: SmsTemplateKey.array(),
  archived: Archived,
});

const FeatureSettingsResult = type({
  businessId: 'string',
  /** Every field, stored values over the defaults (controlled ones included, read-only here). */
  settings: BusinessFeatureSettings,
  archived: Archived,
  updated: 'number | null',
  /** Why NHS login cannot be switched on here (the server lacks its configuration), or null. */
  nhsLoginUnavailable: 'string | null',
});

const ControlledSettingsResult = type({
  businessId: 'string',
  settings: ControlledSettings,
  archived: Archived,
  updated: 'number | null',
});

export const businessSettings = defineArea({
  getBusinessSmsTemplates: {
    input: type({ businessId: BusinessId, 'language?': Locale }),
    output: SmsTemplatesResult,
    access: staff({ business: 'businessId' }),
    summary:
      "A business's eight SMS templates in one language (default en; cy: Welsh), its own wording or the default, with the defaults.",
  },
  updateBusinessSmsTemplates: {
    input: type({
      businessId: BusinessId,
      /** Which language's templates (default en); each passes the same checks. */
      'language?': Locale,
      /** The templates to change; keys left out keep their wording. */
      templates: SmsTemplatesChanges,
      /** Keys to return to the default wording. */
      'reset?': SmsTemplateKey.array(),
    }),
    output: SmsTemplatesResult,
    access: staff({ business: 'businessId' }, true),
    summary:
      'Rewords SMS templates: orderReady/orderUpdated need ${pin} and ${expires}, paymentRequired ${portal}; unknown placeholders refused.',
  },
  getBusinessFeatureSettings: byBusinessId({
    output: FeatureSettingsResult,
    access: staff({ business: 'businessId' }),
    summary: "A business's feature settings, every field, defaults filled in.",
  }),
  updateBusinessFeatureSettings: {
    input: type({ businessId: BusinessId, settings: FeatureSettingsChanges }),
    output: FeatureSettingsResult,
    access: staff({ business: 'businessId' }, true),
    summary:
      'Changes feature settings (top-level keys given are replaced); the controlled ones go through updateBusinessControlledSettings.',
  },
  getBusinessControlledSettings: byBusinessId({
    output: ControlledSettingsResult,
    access: staff({ business: 'businessId' }),
    summary: 'The settings only support staff control: SMS gateway, WhatsApp, QR-code integration.',
  }),
  updateBusinessControlledSettings: {
    input: type({ businessId: BusinessId, settings: ControlledSettingsChanges }),
    output: ControlledSettingsResult,
    access: supportOnly,
    summary: 'Changes the controlled settings (keys given are replaced).',
  },
});
