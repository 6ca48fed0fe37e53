import { businessUsersSearchAtom } from '../../state/businesses.ts';
import { RoleUsers } from '../users/RoleUsers.tsx';
import { useBusiness } from './BusinessLayout.tsx';
import { t } from './i18n/index.ts';

/** SPEC §2 `/businesses/{businessId}/users`: people with a Business role on it, searchable. */
export function BusinessUsers() {
  const { business } = useBusiness();
  return (
    <RoleUsers
      reach={{ kind: 'business', id: business.id, groupId: business.groupId }}
      resource={business}
      searchAtom={businessUsersSearchAtom}
      placeholder={t('businesses.users.search')}
      listLabel={t('businesses.users.list')}
    />
  );
}
