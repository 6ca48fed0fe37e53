import { useProductName } from '../state/session.ts';
import { Loading, usePageTitle } from '../ui/Page.tsx';
import { t } from './i18n/index.ts';
import { LogOutButton } from './LogOutButton.tsx';
import { MyInvitations, useMyInvitations } from './MyInvitations.tsx';

/**
 * SPEC §2/§6: a signed-in user without access sees this and can only log out. `inShell`: a pharmacy
 * user on a support-only page, shown inside the console frame (whose menu leads back).
 */
export function AccessRestricted({ inShell = false }: { inShell?: boolean }) {
  return inShell ? <Restricted inShell /> : <NoRoleYet />;
}

/**
 * A signed-in user with no role: their invitations to answer when they have some (someone invited by a
 * pharmacy Admin signs in first, then accepts: docs/decisions/auth.md, Role invitations), else SPEC's text.
 */
function NoRoleYet() {
  const invitations = useMyInvitations();
  if (!invitations.data && !invitations.error) {
    return (
      <div className="centered">
        <Loading />
      </div>
    );
  }
  if (!invitations.data?.invitations.length) return <Restricted inShell={false} />;
  return (
    <main className="centered">
      <div className="card card--narrow">
        <h1 className="card__title">{t('shell.invited.title')}</h1>
        <MyInvitations />
        <div className="form__actions">
          <LogOutButton variant="secondary">{t('shell.logOut')}</LogOutButton>
        </div>
      </div>
    </main>
  );
}

function Restricted({ inShell }: { inShell: boolean }) {
  const Frame = inShell ? 'div' : 'main';
  const product = useProductName();
  usePageTitle(t('shell.restricted.title'));
  return (
    <Frame className="centered">
      <div className="card card--narrow">
        <h1 className="card__title">{t('shell.restricted.title')}</h1>
        <p>{t('shell.restricted.text', { product })}</p>
        <div className="form__actions">
          <LogOutButton variant="primary">{t('shell.logOut')}</LogOutButton>
        </div>
      </div>
    </Frame>
  );
}
