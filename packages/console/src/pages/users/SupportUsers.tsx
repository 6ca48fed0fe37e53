import type { User } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { supportUsersSearchAtom } from '../../state/users.ts';
import { emailColumn, type ListColumn, ListPage, linkAction, nameColumn } from '../../ui/ListPage.tsx';
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
      query={{
        key: ['users', 'getUsersByRole', 'Support', null],
        load: async (filterText, nextToken) => {
          const page = await rpc('users', 'getUsersByRole', { roleName: 'Support', filterText, nextToken });
          return { items: page.users, nextToken: page.nextToken };
        },
      }}
      label={t('users.support.label')}
      columns={columns()}
      emptyText={t('users.list.empty')}
    />
  );
}
