import { useProductName } from '../state/session.ts';
import { usePageTitle } from '../ui/Page.tsx';
import { LogOutButton } from './LogOutButton.tsx';

/**
 * SPEC §2/§6: a signed-in user without access sees this and can only log out. `inShell`: a pharmacy
 * user on a support-only page, shown inside the console frame (whose menu leads back).
 */
export function AccessRestricted({ inShell = false }: { inShell?: boolean }) {
  const Frame = inShell ? 'div' : 'main';
  const product = useProductName();
  usePageTitle('Access Restricted');
  return (
    <Frame className="centered">
      <div className="card card--narrow">
        <h1 className="card__title">Access Restricted</h1>
        <p>
          You do not have access to this area. If you think you should, please speak to your manager or {product}{' '}
          Support.
        </p>
        <div className="form__actions">
          <LogOutButton variant="primary">Log Out</LogOutButton>
        </div>
      </div>
    </Frame>
  );
}
