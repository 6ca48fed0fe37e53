import { groupUsersSearchAtom } from '../../state/groups.ts';
import { RoleUsers } from '../users/RoleUsers.tsx';
import { useGroup } from './GroupLayout.tsx';
import { t } from './i18n/index.ts';

/** SPEC §2 `/groups/{groupId}/users`: Name, Email, Access levels; prefix search (SPEC §5). */
export function GroupUsers() {
  const { group } = useGroup();
  return (
    <RoleUsers
      reach={{ kind: 'group', id: group.id }}
      resource={group}
      searchAtom={groupUsersSearchAtom}
      placeholder={t('groups.users.search')}
      listLabel={t('groups.users.list')}
    />
  );
}
