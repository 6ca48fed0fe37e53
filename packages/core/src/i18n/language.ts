import { type } from 'arktype';

/**
 * The languages patients read: English and Welsh (Cymraeg). Another language is a catalog file per
 * front end and a wording file here (docs/ARCHITECTURE.md, Languages).
 */
export const locales = ['en', 'cy'] as const;
export const Locale = type.enumerated(...locales);
export type Locale = typeof Locale.infer;

/** A language a patient chose on a page (the patient page, the sign-up page): refused in the switch's words. */
export const LanguageChoice = Locale.configure({ message: 'Choose English or Cymraeg' });

/**
 * What a business sends its patients by default: English, Welsh, or both in one message, Welsh first
 * (as NHS Wales does; REFERENCE, Welsh).
 */
export const patientLanguages = ['en', 'cy', 'bilingual'] as const;
export const PatientLanguage = type.enumerated(...patientLanguages);
export type PatientLanguage = typeof PatientLanguage.infer;

/** Each language's name in its own words, as a language switch shows it. */
export const localeNames: Record<Locale, string> = { en: 'English', cy: 'Cymraeg' };

/** The BCP 47 tag for `<html lang>` and Intl. */
export const localeTags: Record<Locale, string> = { en: 'en-GB', cy: 'cy-GB' };

/**
 * The languages a patient's next message is written in, in order: the patient's own choice (made on
 * the patient page) wins; otherwise the business's default, bilingual meaning Welsh then English.
 */
export function messageLocales(business: PatientLanguage, patient: Locale | null | undefined): Locale[] {
  if (patient) return [patient];
  return business === 'bilingual' ? ['cy', 'en'] : [business];
}

/** The one language a page opens in for these settings: bilingual businesses' pages open in Welsh. */
export const pageLocale = (business: PatientLanguage, patient: Locale | null | undefined): Locale =>
  messageLocales(business, patient)[0] ?? 'en';

/** One message in several languages: each in full, first language first, a blank line between. */
export const joinLanguages = (texts: readonly string[]): string => texts.join('\n\n');
