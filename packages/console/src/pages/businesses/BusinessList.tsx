import type { Business } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { businessesSearchAtom } from '../../state/businesses.ts';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';
import { addressText, useArchivedTabs } from './entity-parts.tsx';

const columns: ListColumn<Business>[] = [
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

/** SPEC §2 `/businesses`: Active and Archived tabs (`?archived=true`), search, Add (support staff). */
export function BusinessList() {
  const { archived, tabs } = useArchivedTabs('Businesses', '/businesses');
  return (
    <ListPage
      title="Businesses"
      lead="The pharmacies using the lockers."
      actions={[linkAction('Add', '/businesses/add', ['businesses', 'createBusiness'])]}
      tabs={tabs}
      search={{ atom: businessesSearchAtom, placeholder: 'Business name' }}
      query={{
        key: ['businesses', 'listBusinesses', archived],
        load: async (filterText, nextToken) => {
          const page = await rpc('businesses', 'listBusinesses', { archived, filterText, nextToken });
          return { items: page.businesses, nextToken: page.nextToken };
        },
      }}
      label={archived ? 'Archived businesses' : 'Active businesses'}
      columns={columns}
      emptyText="No businesses found"
    />
  );
}
