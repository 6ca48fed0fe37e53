import { NavLink } from 'react-router';
import { useRpcQuery } from '../api/queries.ts';
import { t } from '../i18n/index.ts';

/** The side menu's Mailbox entry, shown only while the server keeps mail in its local mailbox (no SMTP). */
export function MailboxMenuEntry() {
  const query = useRpcQuery(['mailbox', 'list'], {});
  if (!query.data?.active) return null;
  return (
    <li>
      <NavLink to="/mailbox" className="side-menu__link">
        {t('menu.mailbox')}
      </NavLink>
    </li>
  );
}
