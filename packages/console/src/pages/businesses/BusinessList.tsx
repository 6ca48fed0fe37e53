import type { Business } from '@medlocker/core';
import { useSearchParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { businessesSearchAtom } from '../../state/businesses.ts';
import { useUrlSearch } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { PagedList } from '../../ui/PagedList.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { TabLinks } from '../../ui/Tabs.tsx';
import type { VirtualColumn } from '../../ui/VirtualList.tsx';
import { addressText } from './entity-parts.tsx';

/** SPEC §9: search waits until typing has paused this long. */
const searchDebounceMs = 500;

const columns: VirtualColumn<Business>[] = [
  {
    key: 'name',
    header: 'Name',
    width: 'minmax(10rem, 1fr)',
    render: (b) => <Link href={`/businesses/${encodeURIComponent(b.id)}`}>{b.name}</Link>,
  },
  { key: 'address', header: 'Address', width: 'minmax(12rem, 1.6fr)', render: (b) => addressText(b.address) },
  {
    key: 'email',
    header: 'Email',
    width: 'minmax(10rem, 1fr)',
    render: (b) => <span className="cell-email">{b.email}</span>,
  },
];

/** SPEC §2 `/businesses`: Active and Archived tabs (`?archived=true`), search, Add. */
export function BusinessList() {
  const [params] = useSearchParams();
  const archived = params.get('archived') === 'true';
  const [search, setSearch] = useUrlSearch(businessesSearchAtom);
  const filterText = useDebounced(search.trim(), searchDebounceMs);
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc(
        'businesses',
        'listBusinesses',
        { archived, filterText: filterText || undefined, nextToken },
        { signal },
      );
      return { items: page.businesses, nextToken: page.nextToken };
    },
    ['businesses', 'listBusinesses', archived, filterText],
  );

  return (
    <Page
      title="Businesses"
      lead="The pharmacies using the lockers."
      actions={
        <>
          <Button onPress={list.reload} isPending={list.isLoading && list.items.length > 0}>
            Reload
          </Button>
          <Link href="/businesses/add" variant="primary-button">
            Add
          </Link>
        </>
      }
    >
      <TabLinks
        label="Businesses"
        selectedId={archived ? 'archived' : 'active'}
        tabs={[
          { id: 'active', label: 'Active', href: '/businesses' },
          { id: 'archived', label: 'Archived', href: '/businesses?archived=true' },
        ]}
      />
      <div className="toolbar">
        <SearchField
          label="Search"
          placeholder="Business name"
          value={search}
          onChange={setSearch}
          className="toolbar__search"
        />
      </div>
      <PagedList
        query={list}
        label={archived ? 'Archived businesses' : 'Active businesses'}
        columns={columns}
        emptyText="No businesses found"
      />
    </Page>
  );
}
