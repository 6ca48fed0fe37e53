import { groupUsersSearchAtom } from '../../state/groups.ts';
import { useAdministers } from '../../state/reach.ts';
import { RoleUsers } from '../users/RoleUsers.tsx';
import { useGroup } from './GroupLayout.tsx';
import { t } from './i18n/index.ts';

/** SPEC §2 `/groups/{groupId}/users`: Name, Email, Access levels; prefix search (SPEC §5). */
export function GroupUsers() {
  const { group } = useGroup();
  const manages = useAdministers({ kind: 'group', id: group.id });
  return (
    <RoleUsers
      roleName="Group"
      resource={group}
      usersPath={`/groups/${encodeURIComponent(group.id)}/users`}
      searchAtom={groupUsersSearchAtom}
      placeholder={t('groups.users.search')}
      listLabel={t('groups.users.list')}
      canManage={manages === true}
    />
  );
}
