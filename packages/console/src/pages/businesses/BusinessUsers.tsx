import { businessUsersSearchAtom } from '../../state/businesses.ts';
import { useAdministers } from '../../state/reach.ts';
import { RoleUsers } from '../users/RoleUsers.tsx';
import { useBusiness } from './BusinessLayout.tsx';
import { t } from './i18n/index.ts';

/** SPEC §2 `/businesses/{businessId}/users`: people with a Business role on it, searchable. */
export function BusinessUsers() {
  const { business } = useBusiness();
  const manages = useAdministers({ kind: 'business', id: business.id, groupId: business.groupId });
  return (
    <RoleUsers
      roleName="Business"
      resource={business}
      usersPath={`/businesses/${encodeURIComponent(business.id)}/users`}
      searchAtom={businessUsersSearchAtom}
      placeholder={t('businesses.users.search')}
      listLabel={t('businesses.users.list')}
      canManage={manages === true}
    />
  );
}
