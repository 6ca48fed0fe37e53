import type { Business } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { groupBusinessesSearchAtom, groupBusinessesShowArchivedAtom } from '../../state/groups.ts';
import { offByDefault, useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction, confirmWords } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { addressText } from '../businesses/entity-parts.tsx';
import { useGroup } from './GroupLayout.tsx';
import { LinkBusinessesDialog } from './LinkBusinessesDialog.tsx';

/** The group's businesses: the name opens it (archived ones say so), Remove for who may unlink. */
function businessColumns(groupId: string, onRemove: (business: Business) => void): ListColumn<Business>[] {
  const base = `/groups/${encodeURIComponent(groupId)}/businesses`;
  return [
    {
      key: 'name',
      header: 'Name',
      width: 'minmax(10rem, 1fr)',
      render: (b) => (
        <Link href={`${base}/${encodeURIComponent(b.id)}`}>
          {b.name}
          {b.archived ? ' (archived)' : ''}
        </Link>
      ),
    },
    { key: 'address', header: 'Address', width: 'minmax(12rem, 1.6fr)', render: (b) => addressText(b.address) },
    {
      key: 'actions',
      header: 'Actions',
      width: '7rem',
      method: ['businesses', 'unlinkGroup'],
      render: (b) => (
        <Button
          variant="quiet"
          aria-label={`Remove ${b.name}`}
          onPress={() => onRemove(b)}
          isDisabled={Boolean(b.archived)}
        >
          Remove
        </Button>
      ),
    },
  ];
}

/** SPEC §2 `/groups/{groupId}/businesses`: the linked businesses, remove, Show archived, Link businesses. */
export function GroupBusinesses() {
  const { group } = useGroup();
  const [showArchived, setShowArchived] = useUrlState('archived', groupBusinessesShowArchivedAtom, offByDefault);
  const [linking, setLinking] = useState(false);
  const [removing, setRemoving] = useState<Business | null>(null);
  const [notice, setNotice] = useState<string>();
  const groupArchived = Boolean(group.archived);
  const key = ['businesses', 'listGroupedBusinesses', group.id, showArchived];
  const reload = () => void queryClient.invalidateQueries({ queryKey: key.slice(0, 3) });

  return (
    <ListPage
      title="Businesses"
      frame="part"
      actions={[
        {
          key: 'link',
          method: ['businesses', 'linkGroup'],
          element: (
            <Button variant="primary" onPress={() => setLinking(true)} isDisabled={groupArchived}>
              Link businesses
            </Button>
          ),
        },
      ]}
      banner={notice && <Banner tone="success">{notice}</Banner>}
      search={{ atom: groupBusinessesSearchAtom, placeholder: 'Business name', label: 'Search businesses' }}
      filters={
        <Switch isSelected={showArchived} onChange={setShowArchived}>
          Show archived
        </Switch>
      }
      query={{
        key,
        load: async (filterText, nextToken) => {
          const input = { groupId: group.id, archived: showArchived, filterText, nextToken };
          const page = await rpc('businesses', 'listGroupedBusinesses', input);
          return { items: page.businesses, nextToken: page.nextToken };
        },
      }}
      label="Group businesses"
      columns={businessColumns(group.id, setRemoving)}
      emptyText="No businesses found"
    >
      <LinkBusinessesDialog
        groupId={group.id}
        groupName={group.name}
        isOpen={linking}
        onClose={(linked) => {
          setLinking(false);
          if (linked > 0) {
            setNotice(linked === 1 ? '1 business linked.' : `${linked} businesses linked.`);
            reload();
          }
        }}
      />
      {removing && (
        <ConfirmAction
          {...confirmWords('Remove', 'business')}
          isOpen
          action={() => rpc('businesses', 'unlinkGroup', { id: removing.id })}
          onDone={() => {
            setNotice(`${removing.name} removed from the group.`);
            setRemoving(null);
            reload();
          }}
          onCancel={() => setRemoving(null)}
        >
          <p>{`${removing.name} will no longer be in the group ${group.name}.`}</p>
          {groupArchived && (
            <p className="warning-text">You won't be able to add it back unless group is unarchived.</p>
          )}
        </ConfirmAction>
      )}
    </ListPage>
  );
}
