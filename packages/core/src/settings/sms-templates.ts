import { type } from 'arktype';
import { anyKey, eachGiven } from '../validation/by-key.ts';
import { type ValidationError, validationMessage } from '../validation/catalogue.ts';
import { upTo } from '../validation/string-limits.ts';

/** The SMS templates a business can word (SPEC §3), by key. */
export const smsTemplateKeys = [
  'machineBackInOrder',
  'machineOutOfOrder',
  'orderReady',
  'orderUpdated',
  'orderRemoved',
  'orderExpiring',
  'paymentRequired',
  'orderCollected',
] as const;
export const SmsTemplateKey = type.enumerated(...smsTemplateKeys);
export type SmsTemplateKey = typeof SmsTemplateKey.infer;

/**
 * The placeholders a patient message may use, written `${name}` in a template (SPEC §9): business
 * name, expiry date, machine name, machine and business, PIN, portal URL, postcode, temperature.
 */
export const placeholders = [
  'businessName',
  'expires',
  'machineName',
  'machineAndBusiness',
  'pin',
  'portal',
  'postcode',
  'temperature',
] as const;
export type Placeholder = (typeof placeholders)[number];

/** Values to render a template with; a missing one renders as an empty string. */
export type PlaceholderValues = Partial<Record<Placeholder, string>>;

/** Placeholders a template must contain: without them the patient cannot collect or pay (SPEC §5). */
export const requiredPlaceholders: Record<SmsTemplateKey, readonly Placeholder[]> = {
  machineBackInOrder: [],
  machineOutOfOrder: [],
  orderReady: ['pin', 'expires'],
  orderUpdated: ['pin', 'expires'],
  orderRemoved: [],
  orderExpiring: [],
  paymentRequired: ['portal'],
  orderCollected: [],
};

export const placeholderPattern = /\$\{([^}]*)\}/g;

/** The placeholder names written in a template, in order, repeats kept. */
export const placeholdersIn = (template: string): string[] =>
  [...template.matchAll(placeholderPattern)].map((m) => m[1] ?? '');

export const isPlaceholder = (name: string): name is Placeholder => (placeholders as readonly string[]).includes(name);

/**
 * The problems of one template: each required placeholder missing ('Missing ${pin} placeholder',
 * MISSING_PLACEHOLDER) and each unknown one ('Unknown placeholder ${pinn}', UNKNOWN_PLACEHOLDER), so a
 * typo is caught before a patient receives a literal '${pinn}'. `path` defaults to the key.
 */
export function smsTemplateErrors(key: SmsTemplateKey, template: string, path: string = key): ValidationError[] {
  const used = placeholdersIn(template);
  const errors: ValidationError[] = [];
  for (const name of new Set(used)) {
    if (!isPlaceholder(name))
      errors.push({ path, id: 'UNKNOWN_PLACEHOLDER', message: validationMessage.unknownPlaceholder(name) });
  }
  for (const name of requiredPlaceholders[key]) {
    if (!used.includes(name))
      errors.push({ path, id: 'MISSING_PLACEHOLDER', message: validationMessage.missingPlaceholder(name) });
  }
  return errors;
}

/** One template as sent: at most 6 SMS pages (the contract's smsTemplateMaxLength). */
const SmsTemplate = upTo(960);

/** A business's templates; a key left out uses the product's default wording. */
export const SmsTemplates = type(anyKey(smsTemplateKeys, SmsTemplate)).narrow(
  eachGiven(smsTemplateKeys, (key, template) => smsTemplateErrors(key, template)[0]),
);
export type SmsTemplates = typeof SmsTemplates.infer;
