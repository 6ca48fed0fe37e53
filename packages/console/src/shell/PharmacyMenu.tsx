import { NavLink } from 'react-router';
import { type ConsoleMessageId, t } from '../i18n/index.ts';
import { businessSectionPaths, consolePaths, orderPaths } from '../paths.ts';
import { useBusinessGroupId, useCurrentBusiness } from '../state/current-business.ts';
import { useAdministers } from '../state/reach.ts';
import { BusinessSwitcher } from './BusinessSwitcher.tsx';

/**
 * The pharmacy user's side menu: their current business (a switcher when they reach
 * several) and its Dashboard, Orders, Patients, Machines, and, for its Admins, Users and Settings.
 */
export function PharmacyMenu() {
  const reach = useCurrentBusiness();
  const current = reach.current;
  return (
    <>
      <BusinessSwitcher reach={reach} />
      <nav aria-label={t('menu.main')} className="side-menu">
        <ul>
          <li>
            <NavLink to="/" end className="side-menu__link">
              {t('menu.dashboard')}
            </NavLink>
          </li>
          {current && <BusinessLinks businessId={current.id} />}
        </ul>
      </nav>
    </>
  );
}

function BusinessLinks({ businessId }: { businessId: string }) {
  const paths = businessSectionPaths(businessId);
  const groupId = useBusinessGroupId(businessId);
  // The Admin-only entries wait for the group to be known: a Group Admin manages it through the group.
  const manages = useAdministers({ kind: 'business', id: businessId, groupId: groupId ?? null });
  const links: { to: string; label: ConsoleMessageId }[] = [
    { to: orderPaths.list(businessId), label: 'menu.orders' },
    { to: paths.patients, label: 'menu.patients' },
    { to: paths.machines, label: 'menu.machines' },
    ...(manages && groupId !== undefined
      ? [
          { to: paths.users, label: 'menu.users' as const },
          { to: paths.settings, label: 'menu.settings' as const },
          { to: consolePaths.audit, label: 'menu.audit' as const },
        ]
      : []),
  ];
  return links.map((link) => (
    <li key={link.label}>
      <NavLink to={link.to} className="side-menu__link">
        {t(link.label)}
      </NavLink>
    </li>
  ));
}
