import type { Business } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { businessesSearchAtom } from '../../state/businesses.ts';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';
import { addressText, useArchivedTabs } from './entity-parts.tsx';
import { t } from './i18n/index.ts';

const columns = (): ListColumn<Business>[] => [
  {
    key: 'name',
    header: t('businesses.list.column.name'),
    width: 'minmax(10rem, 1fr)',
    render: (b) => <Link href={`/businesses/${encodeURIComponent(b.id)}`}>{b.name}</Link>,
  },
  {
    key: 'address',
    header: t('businesses.list.column.address'),
    width: 'minmax(12rem, 1.6fr)',
    render: (b) => addressText(b.address),
  },
  {
    key: 'email',
    header: t('businesses.list.column.email'),
    width: 'minmax(10rem, 1fr)',
    render: (b) => <span className="cell-email">{b.email}</span>,
  },
];

/** SPEC §2 `/businesses`: Active and Archived tabs (`?archived=true`), search, Add (support staff). */
export function BusinessList() {
  const { archived, tabs } = useArchivedTabs(t('businesses.list.title'), '/businesses');
  return (
    <ListPage
      title={t('businesses.list.title')}
      lead={t('businesses.list.lead')}
      actions={[linkAction(t('businesses.list.add'), '/businesses/add', ['businesses', 'createBusiness'])]}
      tabs={tabs}
      search={{ atom: businessesSearchAtom, placeholder: t('businesses.list.search') }}
      query={{
        key: ['businesses', 'listBusinesses', archived],
        load: async (filterText, nextToken) => {
          const page = await rpc('businesses', 'listBusinesses', { archived, filterText, nextToken });
          return { items: page.businesses, nextToken: page.nextToken };
        },
      }}
      label={archived ? t('businesses.list.archived') : t('businesses.list.active')}
      columns={columns()}
      emptyText={t('businesses.list.empty')}
    />
  );
}
