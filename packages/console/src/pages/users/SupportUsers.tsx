import type { User } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { supportUsersSearchAtom } from '../../state/users.ts';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';
import { t } from './i18n/index.ts';

/** The list's columns, their headers in the active language. */
const columns = (): ListColumn<User>[] => [
  {
    key: 'name',
    header: t('users.list.name'),
    width: 'minmax(10rem, 1fr)',
    render: (u) => <Link href={`/users/${encodeURIComponent(u.id)}`}>{u.name}</Link>,
  },
  {
    key: 'email',
    header: t('users.list.email'),
    width: 'minmax(12rem, 1.4fr)',
    render: (u) => <span className="cell-email">{u.email}</span>,
  },
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
