import { SecondFactorsSection } from '../pages/account/SecondFactors.tsx';
import { loadSession } from '../state/session.ts';
import { usePageTitle } from '../ui/Page.tsx';
import { t } from './i18n/index.ts';
import { LogOutButton } from './LogOutButton.tsx';

/**
 * Where a user whom policy requires to have a second factor, and who has none, lands after the password
 * (before anything else: the session reaches nothing but this until a factor is added).
 */
export function SetUpSecondFactor() {
  usePageTitle(t('shell.secondFactor.title'));
  return (
    <main className="centered">
      <div className="card">
        <h1 className="card__title">{t('shell.secondFactor.title')}</h1>
        <p>{t('shell.secondFactor.lead')}</p>
        <SecondFactorsSection onAdded={() => void loadSession()} />
        <LogOutButton variant="quiet">{t('shell.secondFactor.logOut')}</LogOutButton>
      </div>
    </main>
  );
}
