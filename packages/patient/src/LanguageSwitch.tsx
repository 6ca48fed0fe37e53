import { chooseLanguage, localeNames, patientLocales, t, usePatientLocale } from './i18n/index.ts';

/**
 * English | Cymraeg, on every screen (the Welsh "Active Offer": the choice is offered, not hunted
 * for). Each name is in its own language; the active one is pressed.
 */
export function LanguageSwitch() {
  const active = usePatientLocale();
  return (
    <nav className="language-switch" aria-label={t('page.language')}>
      {patientLocales.map((locale) => (
        <button
          key={locale}
          type="button"
          className="language-switch__option"
          lang={locale}
          aria-pressed={locale === active}
          onClick={() => void chooseLanguage(locale).catch(() => undefined)}
        >
          {localeNames[locale]}
        </button>
      ))}
    </nav>
  );
}
