import type { Group } from '@medlocker/core';
import { useSearchParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { groupsSearchAtom } from '../../state/groups.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { TabLinks } from '../../ui/Tabs.tsx';
import { addressText } from '../businesses/entity-parts.tsx';

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
  const [params] = useSearchParams();
  const archived = params.get('archived') === 'true';
  return (
    <ListPage
      title="Groups"
      actions={[
        {
          key: 'add',
          method: ['groups', 'createGroup'],
          element: (
            <Link href="/groups/add" variant="primary-button">
              Add
            </Link>
          ),
        },
      ]}
      banner={
        <Banner tone="warning">
          Caution: This is not the businesses page. This page is only for creating and editing groups
        </Banner>
      }
      tabs={
        <TabLinks
          label="Groups"
          selectedId={archived ? 'archived' : 'active'}
          tabs={[
            { id: 'active', label: 'Active', href: '/groups' },
            { id: 'archived', label: 'Archived', href: '/groups?archived=true' },
          ]}
        />
      }
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
