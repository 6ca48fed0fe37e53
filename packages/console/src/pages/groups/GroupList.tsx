import type { Group } from '@medlocker/core';
import { useSearchParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { groupsSearchAtom } from '../../state/groups.ts';
import { useUrlSearch } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { PagedList } from '../../ui/PagedList.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { TabLinks } from '../../ui/Tabs.tsx';
import type { VirtualColumn } from '../../ui/VirtualList.tsx';
import { addressText } from '../businesses/entity-parts.tsx';

const searchDebounceMs = 500;

const columns: VirtualColumn<Group>[] = [
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

/** SPEC §2 `/groups`: Active and Archived tabs, search, reload, clear filters, Add. */
export function GroupList() {
  const [params] = useSearchParams();
  const archived = params.get('archived') === 'true';
  const [search, setSearch] = useUrlSearch(groupsSearchAtom);
  const filter = useDebounced(search.trim(), searchDebounceMs);
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc('groups', 'listGroups', { archived, filter: filter || undefined, nextToken }, { signal });
      return { items: page.groups, nextToken: page.nextToken };
    },
    ['groups', 'listGroups', archived, filter],
  );

  return (
    <Page
      title="Groups"
      actions={
        <>
          <Button onPress={list.reload} isPending={list.isLoading && list.items.length > 0}>
            Reload
          </Button>
          <Link href="/groups/add" variant="primary-button">
            Add
          </Link>
        </>
      }
    >
      <Banner tone="warning">
        Caution: This is not the businesses page. This page is only for creating and editing groups
      </Banner>
      <TabLinks
        label="Groups"
        selectedId={archived ? 'archived' : 'active'}
        tabs={[
          { id: 'active', label: 'Active', href: '/groups' },
          { id: 'archived', label: 'Archived', href: '/groups?archived=true' },
        ]}
      />
      <div className="toolbar">
        <SearchField
          label="Search"
          placeholder="Group name"
          value={search}
          onChange={setSearch}
          className="toolbar__search"
        />
        <Button variant="quiet" onPress={() => setSearch('')} isDisabled={search === ''}>
          Clear filters
        </Button>
      </div>
      <PagedList
        query={list}
        label={archived ? 'Archived groups' : 'Active groups'}
        columns={columns}
        emptyText={`No ${archived ? 'archived' : 'active'} groups found.`}
      />
    </Page>
  );
}
