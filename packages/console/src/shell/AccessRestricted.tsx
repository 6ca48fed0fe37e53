import { useState } from 'react';
import { useNavigate } from 'react-router';
import { logOut, useProductName } from '../state/session.ts';
import { Button } from '../ui/Button.tsx';
import { usePageTitle } from '../ui/Page.tsx';

/**
 * SPEC §2/§6: a signed-in user without access sees this and can only log out. `inShell`: a pharmacy
 * user on a support-only page, shown inside the console frame (whose menu leads back).
 */
export function AccessRestricted({ inShell = false }: { inShell?: boolean }) {
  const Frame = inShell ? 'div' : 'main';
  const product = useProductName();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
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
          <Button
            variant="primary"
            isPending={pending}
            onPress={async () => {
              setPending(true);
              try {
                await logOut();
              } finally {
                navigate('/auth/login', { replace: true });
              }
            }}
          >
            Log Out
          </Button>
        </div>
      </div>
    </Frame>
  );
}
