import type { Business } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { groupBusinessesSearchAtom, groupBusinessesShowArchivedAtom } from '../../state/groups.ts';
import { offByDefault, useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { useAction } from '../../ui/use-action.ts';
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
      <RemoveBusinessDialog
        key={removing?.id ?? ''}
        business={removing}
        groupName={group.name}
        groupArchived={groupArchived}
        onCancel={() => setRemoving(null)}
        onRemoved={(business) => {
          setNotice(`${business.name} removed from the group.`);
          setRemoving(null);
          reload();
        }}
      />
    </ListPage>
  );
}

/** "Remove business?": unlinks it from the group when confirmed. */
function RemoveBusinessDialog({
  business,
  groupName,
  groupArchived,
  onCancel,
  onRemoved,
}: {
  business: Business | null;
  groupName: string;
  groupArchived: boolean;
  onCancel: () => void;
  onRemoved: (business: Business) => void;
}) {
  const { pending, error, run } = useAction();
  const remove = async () => {
    if (business && (await run(() => rpc('businesses', 'unlinkGroup', { id: business.id })))) onRemoved(business);
  };
  return (
    <ConfirmDialog
      title="Remove business?"
      isOpen={business !== null}
      onOpenChange={(open) => !open && !pending && onCancel()}
      cancelLabel="Keep business"
      confirmLabel="Remove business"
      onConfirm={() => void remove()}
      isPending={pending}
      error={error}
    >
      {business && <p>{`${business.name} will no longer be in the group ${groupName}.`}</p>}
      {groupArchived && <p className="warning-text">You won't be able to add it back unless group is unarchived.</p>}
    </ConfirmDialog>
  );
}
