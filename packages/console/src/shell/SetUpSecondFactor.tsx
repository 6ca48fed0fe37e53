import { SecondFactorsSection } from '../pages/account/SecondFactors.tsx';
import { loadSession } from '../state/session.ts';
import { usePageTitle } from '../ui/Page.tsx';
import { LogOutButton } from './LogOutButton.tsx';

/**
 * Where a user whom policy requires to have a second factor, and who has none, lands after the password
 * (before anything else: the session reaches nothing but this until a factor is added).
 */
export function SetUpSecondFactor() {
  usePageTitle('Set up a second factor');
  return (
    <main className="centered">
      <div className="card">
        <h1 className="card__title">Set up a second factor</h1>
        <p>
          Your account must be protected with more than a password. Add a passkey or an authenticator app to continue.
        </p>
        <SecondFactorsSection onAdded={() => void loadSession()} />
        <LogOutButton variant="quiet">Log out</LogOutButton>
      </div>
    </main>
  );
}
