import type { Group } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { groupsSearchAtom } from '../../state/groups.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';
import { addressText, useArchivedTabs } from '../businesses/entity-parts.tsx';

const columns: ListColumn<Group>[] = [
  {
    key: 'name',
    header: 'Name',
    width: 'minmax(10rem, 1fr)',
    render: (g) => <Link href={`/groups/${encodeURIComponent(g.id)}`}>{g.name}</Link>,
  },
  {
    key: 'email',
    header: 'Email',
    width: 'minmax(10rem, 1fr)',
    render: (g) => <span className="cell-email">{g.email || '—'}</span>,
  },
  { key: 'address', header: 'Address', width: 'minmax(12rem, 1.4fr)', render: (g) => addressText(g.address) || '—' },
];

/** SPEC §2 `/groups`: Active and Archived tabs, search, reload, clear filters, Add (support staff). */
export function GroupList() {
  const { archived, tabs } = useArchivedTabs('Groups', '/groups');
  return (
    <ListPage
      title="Groups"
      actions={[linkAction('Add', '/groups/add', ['groups', 'createGroup'])]}
      banner={
        <Banner tone="warning">
          Caution: This is not the businesses page. This page is only for creating and editing groups
        </Banner>
      }
      tabs={tabs}
      search={{ atom: groupsSearchAtom, placeholder: 'Group name' }}
      clearFilters={() => {}}
      query={{
        key: ['groups', 'listGroups', archived],
        load: async (filter, nextToken) => {
          const page = await rpc('groups', 'listGroups', { archived, filter, nextToken });
          return { items: page.groups, nextToken: page.nextToken };
        },
      }}
      label={archived ? 'Archived groups' : 'Active groups'}
      columns={columns}
      emptyText={`No ${archived ? 'archived' : 'active'} groups found.`}
    />
  );
}
