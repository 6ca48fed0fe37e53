import type { Group } from '@medlocker/core';
import { groupsSearchAtom } from '../../state/groups.ts';
import { Banner } from '../../ui/Banner.tsx';
import { emailColumn, type ListColumn, ListPage, linkAction, nameColumn } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { addressText, useArchivedTabs } from '../businesses/entity-parts.tsx';
import { t } from './i18n/index.ts';

const columns = (): ListColumn<Group>[] => [
  nameColumn(t('groups.list.column.name'), (g) => `/groups/${encodeURIComponent(g.id)}`),
  emailColumn(t('groups.list.column.email'), 'minmax(10rem, 1fr)'),
  {
    key: 'address',
    header: t('groups.list.column.address'),
    width: 'minmax(12rem, 1.4fr)',
    render: (g) => addressText(g.address) || '—',
  },
];

/** SPEC §2 `/groups`: Active and Archived tabs, search, reload, clear filters, Add (support staff). */
export function GroupList() {
  const { archived, tabs } = useArchivedTabs(t('groups.list.title'), '/groups');
  return (
    <ListPage
      title={t('groups.list.title')}
      actions={[linkAction(t('groups.list.add'), '/groups/add', ['groups', 'createGroup'])]}
      banner={<Banner tone="warning">{t('groups.list.caution')}</Banner>}
      tabs={tabs}
      search={{ atom: groupsSearchAtom, placeholder: t('groups.list.search') }}
      clearFilters={() => {}}
      query={rpcListQuery(['groups', 'listGroups', archived], 'groups', (filter, nextToken) => ({
        archived,
        filter,
        nextToken,
      }))}
      label={archived ? t('groups.list.archived') : t('groups.list.active')}
      columns={columns()}
      emptyText={archived ? t('groups.list.emptyArchived') : t('groups.list.emptyActive')}
    />
  );
}
