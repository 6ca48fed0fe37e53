import { createLayer } from '@medlocker/core/i18n-layer';
import { useSyncExternalStore } from 'react';
import { messages } from './en.compiled.ts';
import type { en } from './en.ts';

/*
 * The patient page's and sign-up page's language layer (core's i18n-layer over the catalogs beside
 * this file). English is the page's own; Welsh is fetched only when a patient or their pharmacy's
 * setting asks for it.
 */

export type PatientLocale = 'en' | 'cy';
export type PatientMessageId = keyof typeof en;

export const patientLocales: readonly PatientLocale[] = ['en', 'cy'];
/** Each language in its own words, as the switch shows it. */
export const localeNames: Record<PatientLocale, string> = { en: 'English', cy: 'Cymraeg' };
const htmlLang: Record<PatientLocale, string> = { en: 'en-GB', cy: 'cy-GB' };

export const patientLayer = createLayer<PatientMessageId, PatientLocale>('en', messages, async (locale) => {
  if (locale === 'cy') return (await import('./cy.compiled.ts')).messages;
  return messages;
});

/** A message in the active language: `t('order.heading', { business })`. */
export const t = patientLayer.t;

/** The Intl tag of the active language, for dates. */
export const intlLocale = () => htmlLang[patientLayer.locale()];

const isLocale = (value: unknown): value is PatientLocale => value === 'en' || value === 'cy';

const CHOICE_KEY = 'medlocker.patient.language';
/** A choice made on this page, should storage refuse to keep it. */
let chosenHere: PatientLocale | null = null;

/** Shows the page in `locale`: loads its catalog and sets `<html lang>`. */
async function display(locale: PatientLocale): Promise<void> {
  await patientLayer.activate(locale);
  document.documentElement.lang = htmlLang[locale];
}

/**
 * Shows the page in `locale` and remembers it in this browser for the next visit (before the server
 * knows who the patient is).
 */
export async function showIn(locale: PatientLocale): Promise<void> {
  await display(locale);
  chosenHere = locale;
  try {
    localStorage.setItem(CHOICE_KEY, locale);
  } catch {
    // Storage refused: the choice lasts for this page only (the server keeps it once signed in).
  }
}

/** The language asked for: `?lang=cy` on the address, else this browser's last choice, else none. */
function chosenLocale(): PatientLocale | null {
  const asked = new URLSearchParams(location.search).get('lang');
  if (isLocale(asked)) return asked;
  try {
    const kept = localStorage.getItem(CHOICE_KEY);
    if (isLocale(kept)) return kept;
  } catch {
    // No storage: nothing kept.
  }
  return null;
}

/**
 * Shows the page in the language it starts in. Only a choice is remembered (`?lang=`, or one kept
 * already): English by default is not, so a pharmacy's default can still apply (showPharmacyDefault).
 */
export const showStartingLocale = (): Promise<void> => {
  const chosen = chosenLocale();
  return chosen ? showIn(chosen) : display('en');
};

/**
 * A pharmacy's default for its patients (`en`, `cy` or `bilingual`, which reads Welsh first), shown
 * when this browser has not chosen: the choice still beats it. Not remembered, as it was not chosen.
 */
export async function showPharmacyDefault(language: PatientLocale | 'bilingual'): Promise<void> {
  if (chosenLocale() !== null) return;
  await display(language === 'en' ? 'en' : 'cy');
}

/**
 * The language shown, when this browser chose it (the switch, `?lang=`, or a choice kept from before);
 * undefined while the page shows only its pharmacy's default, which is not the visitor's choice. The
 * sign-up page sends it with its codes' requests: the codes are written in it, and the patient the
 * sign-up becomes keeps it (docs/decisions/languages.md).
 */
const chosenLanguage = (): PatientLocale | undefined =>
  chosenHere !== null || chosenLocale() !== null ? patientLayer.locale() : undefined;

/** {@link chosenLanguage} as a request's optional `language` field: `{ language }`, or nothing. */
export const chosenLanguageField = (): { language?: PatientLocale } => {
  const language = chosenLanguage();
  return language ? { language } : {};
};

/** The active language, re-rendering the caller when it changes. */
export const usePatientLocale = () => useSyncExternalStore(patientLayer.subscribe, patientLayer.locale);

let keeper: ((locale: PatientLocale) => Promise<unknown>) | null = null;
/** Who keeps a choice made on the switch beyond this browser: the order page, once signed in. */
export function keepLanguageWith(keep: ((locale: PatientLocale) => Promise<unknown>) | null): void {
  keeper = keep;
}

/** The switch's choice: the page changes at once; the server keeps it for the patient's next messages. */
export async function chooseLanguage(locale: PatientLocale): Promise<void> {
  await showIn(locale);
  await keeper?.(locale);
}
