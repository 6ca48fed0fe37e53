import { NavLink } from 'react-router';
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
      <nav aria-label="Main menu" className="side-menu">
        <ul>
          <li>
            <NavLink to="/" end className="side-menu__link">
              Dashboard
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
  const links = [
    { to: orderPaths.list(businessId), label: 'Orders' },
    { to: paths.patients, label: 'Patients' },
    { to: paths.machines, label: 'Machines' },
    ...(manages && groupId !== undefined
      ? [
          { to: paths.users, label: 'Users' },
          { to: paths.settings, label: 'Settings' },
          { to: consolePaths.audit, label: 'Audit trail' },
        ]
      : []),
  ];
  return links.map((link) => (
    <li key={link.label}>
      <NavLink to={link.to} className="side-menu__link">
        {link.label}
      </NavLink>
    </li>
  ));
}
