import type { User } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { supportUsersSearchAtom } from '../../state/users.ts';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';

const columns: ListColumn<User>[] = [
  {
    key: 'name',
    header: 'Name',
    width: 'minmax(10rem, 1fr)',
    render: (u) => <Link href={`/users/${encodeURIComponent(u.id)}`}>{u.name}</Link>,
  },
  {
    key: 'email',
    header: 'Email',
    width: 'minmax(12rem, 1.4fr)',
    render: (u) => <span className="cell-email">{u.email}</span>,
  },
];

/** SPEC §2 `/users`: people holding the Support role, searchable, paged as the list scrolls. */
export function SupportUsers() {
  return (
    <ListPage
      title="Support Users"
      lead="People who can use this console."
      actions={[linkAction('Add', '/users/add/support', ['auth', 'addRoles'])]}
      search={{ atom: supportUsersSearchAtom, placeholder: 'Name or email' }}
      query={{
        key: ['users', 'getUsersByRole', 'Support', null],
        load: async (filterText, nextToken) => {
          const page = await rpc('users', 'getUsersByRole', { roleName: 'Support', filterText, nextToken });
          return { items: page.users, nextToken: page.nextToken };
        },
      }}
      label="Support users"
      columns={columns}
      emptyText="No users found."
    />
  );
}
