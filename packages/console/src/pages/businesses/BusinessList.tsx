import type { Business } from '@medlocker/core';
import { businessesSearchAtom } from '../../state/businesses.ts';
import { emailColumn, type ListColumn, ListPage, linkAction, nameColumn } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { addressText, useArchivedTabs } from './entity-parts.tsx';
import { t } from './i18n/index.ts';

const columns = (): ListColumn<Business>[] => [
  nameColumn(t('businesses.list.column.name'), (b) => `/businesses/${encodeURIComponent(b.id)}`),
  {
    key: 'address',
    header: t('businesses.list.column.address'),
    width: 'minmax(12rem, 1.6fr)',
    render: (b) => addressText(b.address),
  },
  emailColumn(t('businesses.list.column.email'), 'minmax(10rem, 1fr)'),
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
      query={rpcListQuery(['businesses', 'listBusinesses', archived], 'businesses', (filterText, nextToken) => ({
        archived,
        filterText,
        nextToken,
      }))}
      label={archived ? t('businesses.list.archived') : t('businesses.list.active')}
      columns={columns()}
      emptyText={t('businesses.list.empty')}
    />
  );
}
