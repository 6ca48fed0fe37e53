import type { User } from '@medlocker/core';
import { supportUsersSearchAtom } from '../../state/users.ts';
import { emailColumn, type ListColumn, ListPage, linkAction, nameColumn } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { t } from './i18n/index.ts';

/** The list's columns, their headers in the active language. */
const columns = (): ListColumn<User>[] => [
  nameColumn(t('users.list.name'), (u) => `/users/${encodeURIComponent(u.id)}`),
  emailColumn(t('users.list.email')),
];

/** SPEC §2 `/users`: people holding the Support role, searchable, paged as the list scrolls. */
export function SupportUsers() {
  return (
    <ListPage
      title={t('users.support.title')}
      lead={t('users.support.lead')}
      actions={[linkAction(t('users.support.add'), '/users/add/support', ['auth', 'addRoles'])]}
      search={{ atom: supportUsersSearchAtom, placeholder: t('users.support.search') }}
      query={rpcListQuery(['users', 'getUsersByRole', 'Support', null], 'users', (filterText, nextToken) => ({
        roleName: 'Support' as const,
        filterText,
        nextToken,
      }))}
      label={t('users.support.label')}
      columns={columns()}
      emptyText={t('users.list.empty')}
    />
  );
}
