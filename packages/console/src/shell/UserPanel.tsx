import { t } from '../i18n/index.ts';
import { consolePaths } from '../paths.ts';
import { useCurrentUser } from '../state/session.ts';
import { Link } from '../ui/Link.tsx';
import { LogOutButton } from './LogOutButton.tsx';

/** SPEC §2: 'Logged in as' the user's name, with a Log out action; and Your account (password, sessions). */
export function UserPanel() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <section className="user-panel" aria-label={t('user.account')}>
      <p className="user-panel__who">
        {t('user.loggedInAs')} <strong>{user.name}</strong>
      </p>
      <Link href={consolePaths.account} className="user-panel__account">
        {t('user.account')}
      </Link>
      <LogOutButton variant="quiet" className="user-panel__logout">
        {t('user.logOut')}
      </LogOutButton>
    </section>
  );
}
