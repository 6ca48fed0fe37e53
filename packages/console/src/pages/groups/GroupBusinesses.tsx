import type { Business } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { groupBusinessesSearchAtom, groupBusinessesShowArchivedAtom } from '../../state/groups.ts';
import { offByDefault, useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Switch } from '../../ui/Switch.tsx';
import { addressText } from '../businesses/entity-parts.tsx';
import { useGroup } from './GroupLayout.tsx';
import { t } from './i18n/index.ts';
import { LinkBusinessesDialog } from './LinkBusinessesDialog.tsx';

/** The group's businesses: the name opens it (archived ones say so), Remove for who may unlink. */
function businessColumns(groupId: string, onRemove: (business: Business) => void): ListColumn<Business>[] {
  const base = `/groups/${encodeURIComponent(groupId)}/businesses`;
  return [
    {
      key: 'name',
      header: t('groups.businesses.column.name'),
      width: 'minmax(10rem, 1fr)',
      render: (b) => (
        <Link href={`${base}/${encodeURIComponent(b.id)}`}>
          {b.archived ? t('groups.businesses.archivedName', { name: b.name }) : b.name}
        </Link>
      ),
    },
    {
      key: 'address',
      header: t('groups.businesses.column.address'),
      width: 'minmax(12rem, 1.6fr)',
      render: (b) => addressText(b.address),
    },
    {
      key: 'actions',
      header: t('groups.businesses.column.actions'),
      width: '7rem',
      method: ['businesses', 'unlinkGroup'],
      render: (b) => (
        <Button
          variant="quiet"
          aria-label={t('groups.businesses.removeLabel', { name: b.name })}
          onPress={() => onRemove(b)}
          isDisabled={Boolean(b.archived)}
        >
          {t('groups.businesses.remove')}
        </Button>
      ),
    },
  ];
}

/** The question before a business leaves the group, and its two answers. */
const removeWords = () => ({
  title: t('groups.businesses.removeTitle'),
  cancelLabel: t('groups.businesses.removeKeep'),
  confirmLabel: t('groups.businesses.removeConfirm'),
});

/** SPEC §2 `/groups/{groupId}/businesses`: the linked businesses, remove, Show archived, Link businesses. */
export function GroupBusinesses() {
  const { group } = useGroup();
  const [showArchived, setShowArchived] = useUrlState('archived', groupBusinessesShowArchivedAtom, offByDefault);
  const [linking, setLinking] = useState(false);
  const [removing, setRemoving] = useState<Business | null>(null);
  const [notice, setNotice] = useState<string>();
  const groupArchived = Boolean(group.archived);
  const key = ['businesses', 'listGroupedBusinesses', group.id, showArchived] as const;
  const reload = () => void queryClient.invalidateQueries({ queryKey: key.slice(0, 3) });

  return (
    <ListPage
      title={t('groups.businesses.title')}
      frame="part"
      actions={[
        {
          key: 'link',
          method: ['businesses', 'linkGroup'],
          element: (
            <Button variant="primary" onPress={() => setLinking(true)} isDisabled={groupArchived}>
              {t('groups.businesses.link')}
            </Button>
          ),
        },
      ]}
      banner={notice && <Banner tone="success">{notice}</Banner>}
      search={{
        atom: groupBusinessesSearchAtom,
        placeholder: t('groups.businesses.search'),
        label: t('groups.businesses.searchLabel'),
      }}
      filters={
        <Switch isSelected={showArchived} onChange={setShowArchived}>
          {t('groups.businesses.showArchived')}
        </Switch>
      }
      query={rpcListQuery(key, 'businesses', (filterText, nextToken) => ({
        groupId: group.id,
        archived: showArchived,
        filterText,
        nextToken,
      }))}
      label={t('groups.businesses.list')}
      columns={businessColumns(group.id, setRemoving)}
      emptyText={t('groups.businesses.empty')}
    >
      <LinkBusinessesDialog
        groupId={group.id}
        groupName={group.name}
        isOpen={linking}
        onClose={(linked) => {
          setLinking(false);
          if (linked > 0) {
            setNotice(t('groups.businesses.linked', { count: linked }));
            reload();
          }
        }}
      />
      {removing && (
        <ConfirmAction
          {...removeWords()}
          action={() => rpc('businesses', 'unlinkGroup', { id: removing.id })}
          onDone={() => {
            setNotice(t('groups.businesses.removed', { name: removing.name }));
            setRemoving(null);
            reload();
          }}
          onCancel={() => setRemoving(null)}
        >
          <p>{t('groups.businesses.removeBody', { name: removing.name, group: group.name })}</p>
          {groupArchived && <p className="warning-text">{t('groups.businesses.removeArchived')}</p>}
        </ConfirmAction>
      )}
    </ListPage>
  );
}
