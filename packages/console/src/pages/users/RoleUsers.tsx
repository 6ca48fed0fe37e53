import type { User } from '@medlocker/core';
import type { WritableAtom } from 'jotai';
import { resourcePath } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { type Resource, roleNameOf, useAdministers } from '../../state/reach.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { emailColumn, type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { t } from './i18n/index.ts';
import { PendingInvitations } from './PendingInvitations.tsx';

export type RoleUsersProps = {
  /** The business or group whose Business or Group role holders are listed. */
  reach: Resource;
  resource: { archived: unknown };
  /** The search text, kept for the session by the caller's atom. */
  searchAtom: WritableAtom<string, [string], void>;
  placeholder: string;
  /** The list's accessible name. */
  listLabel: string;
};

/**
 * SPEC §2 `/businesses/{id}/users` and `/groups/{id}/users`: the people with a Business or Group role on
 * it (Name, Email, Access levels), searched by prefix, with Add while the resource is not archived (to
 * who may add roles); below it, for those who manage them, the invitations not yet answered. Who
 * manages them (support staff, the resource's pharmacy Admins) gets Add and the links to each user's
 * page; others get the list to read (docs/decisions/auth.md).
 */
export function RoleUsers({ reach, resource, searchAtom, placeholder, listLabel }: RoleUsersProps) {
  const roleName = roleNameOf(reach);
  const usersPath = `${resourcePath(reach.kind, reach.id)}/users`;
  const canManage = useAdministers(reach) === true;
  // 'Business role removed from …' after a user page sends its Admin back here.
  const notice = useFlashNotice();
  const columns: ListColumn<User>[] = [
    {
      key: 'name',
      header: t('users.list.name'),
      width: 'minmax(10rem, 1fr)',
      render: (u) =>
        canManage ? (
          <Link href={`${usersPath}/${encodeURIComponent(u.id)}`}>{u.name || u.email}</Link>
        ) : (
          <span>{u.name || u.email}</span>
        ),
    },
    emailColumn(t('users.list.email')),
    {
      key: 'access',
      header: t('users.list.accessLevels'),
      width: '10rem',
      render: (u) => (u.accessLevels.length > 0 ? u.accessLevels.join(', ') : '—'),
    },
  ];

  return (
    <ListPage
      title={t('users.list.title')}
      frame="part"
      banner={notice && <Banner tone="success">{notice}</Banner>}
      actions={
        resource.archived || !canManage
          ? []
          : [
              {
                key: 'add',
                method: ['auth', 'addRoles'],
                element: (
                  <Link href={`${usersPath}/add`} variant="primary-button">
                    {t('users.list.add')}
                  </Link>
                ),
              },
            ]
      }
      search={{ atom: searchAtom, placeholder, label: t('users.list.search') }}
      query={rpcListQuery(['users', 'getUsersByRole', roleName, reach.id], 'users', (filterText, nextToken) => ({
        roleName,
        roleResource: reach.id,
        filterText,
        nextToken,
      }))}
      label={listLabel}
      columns={columns}
      emptyText={t('users.list.empty')}
    >
      {canManage && <PendingInvitations roleName={roleName} resourceId={reach.id} />}
    </ListPage>
  );
}
