import type { Group } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { groupsSearchAtom } from '../../state/groups.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';
import { addressText, useArchivedTabs } from '../businesses/entity-parts.tsx';
import { t } from './i18n/index.ts';

const columns = (): ListColumn<Group>[] => [
  {
    key: 'name',
    header: t('groups.list.column.name'),
    width: 'minmax(10rem, 1fr)',
    render: (g) => <Link href={`/groups/${encodeURIComponent(g.id)}`}>{g.name}</Link>,
  },
  {
    key: 'email',
    header: t('groups.list.column.email'),
    width: 'minmax(10rem, 1fr)',
    render: (g) => <span className="cell-email">{g.email || '—'}</span>,
  },
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
      query={{
        key: ['groups', 'listGroups', archived],
        load: async (filter, nextToken) => {
          const page = await rpc('groups', 'listGroups', { archived, filter, nextToken });
          return { items: page.groups, nextToken: page.nextToken };
        },
      }}
      label={archived ? t('groups.list.archived') : t('groups.list.active')}
      columns={columns()}
      emptyText={archived ? t('groups.list.emptyArchived') : t('groups.list.emptyActive')}
    />
  );
}
