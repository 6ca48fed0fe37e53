import { consolePaths } from '../paths.ts';
import { useCurrentUser } from '../state/session.ts';
import { Link } from '../ui/Link.tsx';
import { LogOutButton } from './LogOutButton.tsx';

/** SPEC §2: 'Logged in as' the user's name, with a Log out action; and Your account (password, sessions). */
export function UserPanel() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <section className="user-panel" aria-label="Your account">
      <p className="user-panel__who">
        Logged in as <strong>{user.name}</strong>
      </p>
      <Link href={consolePaths.account} className="user-panel__account">
        Your account
      </Link>
      <LogOutButton variant="quiet" className="user-panel__logout">
        Log out
      </LogOutButton>
    </section>
  );
}
