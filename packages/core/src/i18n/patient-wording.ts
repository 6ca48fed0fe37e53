// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the content of the code messages.
import { defaultSmsTemplates } from '../contract/business-settings.ts';
import { formatLongDate, formatTime } from '../format/date.ts';
import { renderTemplate } from '../format/template.ts';
import { fixedPatientMessages } from '../settings/patient-messages.ts';
import type { SmsTemplateKey } from '../settings/sms-templates.ts';
import { joinLanguages, type Locale } from './language.ts';
import { welshCodeMessages, welshFixedMessages, welshSmsTemplates } from './welsh-messages.ts';

/** The product's default wording of each business template, per language. */
export const defaultSmsTemplatesIn: Record<Locale, Record<SmsTemplateKey, string>> = {
  en: defaultSmsTemplates,
  cy: welshSmsTemplates,
};

/** The fixed patient messages, per language. */
export const fixedPatientMessagesIn: Record<Locale, Record<keyof typeof fixedPatientMessages, string>> = {
  en: fixedPatientMessages,
  cy: welshFixedMessages,
};

const welshDate = new Intl.DateTimeFormat('cy-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/**
 * When a patient must collect by, as messages say it (London time): '27 November 2026 at 18:30',
 * '27 Tachwedd 2026 am 18:30' (Intl's Welsh month names, REFERENCE's list).
 */
export function expiresIn(locale: Locale, at: number): string {
  const time = formatTime(at, { seconds: false });
  return locale === 'cy' ? `${welshDate.format(at)} am ${time}` : `${formatLongDate(at)} at ${time}`;
}

/**
 * `${machineAndBusiness}`: 'Front Window at Harborne Pharmacy'; in Welsh with a comma ('Ffenestr,
 * Fferyllfa'), since "yn" would mutate a name that must stay as written.
 */
export function machineAndBusinessIn(locale: Locale, machineName: string, businessName: string): string {
  if (!machineName) return businessName;
  return locale === 'cy' ? `${machineName}, ${businessName}` : `${machineName} at ${businessName}`;
}

/** The subject of a patient's email about an order, in each language asked for, joined. */
export const orderEmailSubject = (locales: readonly Locale[], businessName: string): string =>
  locales.map((l) => (l === 'cy' ? `Eich archeb gan ${businessName}` : `Your order from ${businessName}`)).join(' / ');

/** A message in several languages, first language first (bilingual: Welsh, then English). */
export const patientMessageIn = (locales: readonly Locale[], render: (locale: Locale) => string): string =>
  joinLanguages(locales.map(render));

/**
 * The one-time codes sent to patients, in English (Welsh beside the other Welsh, welsh-messages.ts):
 * a sign-up's code by text or email (and the email's subject), the code that opens an order's link on
 * the patient page, the code proving a mobile the patient adds, and the WhatsApp opt-in code (staff
 * send it; it names the pharmacy, not the product).
 */
export const codeMessages = {
  signUpSubject: 'Your ${productName} sign-up code',
  signUpCode: 'Your ${productName} sign-up code is ${code}. It expires in ${minutes} minutes.',
  patientVerifyCode:
    '${code} is your ${productName} code to see your order. It expires in ${minutes} minutes. Do not share it.',
  patientMobileCode:
    '${code} is your ${productName} code to add this mobile. It expires in ${minutes} minutes. Do not share it.',
  whatsAppOptInCode:
    'Your ${businessName} code to get your pharmacy messages on WhatsApp is ${code}. It expires in ${minutes} minutes. If you did not ask for it, you can ignore this message.',
} as const;

const codeMessagesIn: Record<Locale, Record<keyof typeof codeMessages, string>> = {
  en: codeMessages,
  cy: welshCodeMessages,
};

type CodeText = Exclude<keyof typeof codeMessages, 'signUpSubject'>;

/** A code's text in the patient's languages, one message (bilingual: Welsh, a blank line, English). */
export const codeTextIn = (
  locales: readonly Locale[],
  key: CodeText,
  values: { code: string; minutes: number } & ({ productName: string } | { businessName: string }),
): string =>
  joinLanguages(
    locales.map((l) => renderTemplate(codeMessagesIn[l][key], { ...values, minutes: String(values.minutes) })),
  );

/** A sign-up code email's subject; bilingual: 'Welsh / English', as an order email's. */
export const signUpCodeSubjectIn = (locales: readonly Locale[], productName: string): string =>
  locales.map((l) => renderTemplate(codeMessagesIn[l].signUpSubject, { productName })).join(' / ');
