import type { Business } from '@medlocker/core';
import { useAtom } from 'jotai';
import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { groupBusinessesSearchAtom, groupBusinessesShowArchivedAtom } from '../../state/groups.ts';
import { useUrlSearch } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { PagedList } from '../../ui/PagedList.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { Switch } from '../../ui/Switch.tsx';
import type { VirtualColumn } from '../../ui/VirtualList.tsx';
import { addressText } from '../businesses/entity-parts.tsx';
import { useGroup } from './GroupLayout.tsx';
import { LinkBusinessesDialog } from './LinkBusinessesDialog.tsx';

const searchDebounceMs = 500;

/** SPEC §2 `/groups/{groupId}/businesses`: the linked businesses, remove, Show archived, Link businesses. */
export function GroupBusinesses() {
  const { group } = useGroup();
  const [search, setSearch] = useUrlSearch(groupBusinessesSearchAtom);
  const [showArchived, setShowArchived] = useAtom(groupBusinessesShowArchivedAtom);
  const filterText = useDebounced(search.trim(), searchDebounceMs);
  const [linking, setLinking] = useState(false);
  const [removing, setRemoving] = useState<Business | null>(null);
  const [pending, setPending] = useState(false);
  const [removeError, setRemoveError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const groupArchived = Boolean(group.archived);
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc(
        'businesses',
        'listGroupedBusinesses',
        { groupId: group.id, archived: showArchived, filterText: filterText || undefined, nextToken },
        { signal },
      );
      return { items: page.businesses, nextToken: page.nextToken };
    },
    ['businesses', 'listGroupedBusinesses', group.id, showArchived, filterText],
  );

  const remove = async () => {
    if (!removing) return;
    setPending(true);
    setRemoveError(undefined);
    try {
      await rpc('businesses', 'unlinkGroup', { id: removing.id });
      setNotice(`${removing.name} removed from the group.`);
      setRemoving(null);
      list.reload();
    } catch (e) {
      setRemoveError(messageOf(e));
    } finally {
      setPending(false);
    }
  };

  const base = `/groups/${encodeURIComponent(group.id)}/businesses`;
  const columns: VirtualColumn<Business>[] = [
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
      render: (b) => (
        <Button
          variant="quiet"
          aria-label={`Remove ${b.name}`}
          onPress={() => {
            setRemoveError(undefined);
            setRemoving(b);
          }}
          isDisabled={Boolean(b.archived)}
        >
          Remove
        </Button>
      ),
    },
  ];

  return (
    <>
      {notice && <Banner tone="success">{notice}</Banner>}
      <div className="section-head">
        <h2 className="section-title">Businesses</h2>
        <div className="page__actions">
          <Button onPress={list.reload}>Reload</Button>
          <Button variant="primary" onPress={() => setLinking(true)} isDisabled={groupArchived}>
            Link businesses
          </Button>
        </div>
      </div>
      <div className="toolbar">
        <SearchField
          label="Search businesses"
          placeholder="Business name"
          value={search}
          onChange={setSearch}
          className="toolbar__search"
        />
        <Switch isSelected={showArchived} onChange={setShowArchived}>
          Show archived
        </Switch>
      </div>
      <PagedList query={list} label="Group businesses" columns={columns} emptyText="No businesses found" />
      <LinkBusinessesDialog
        groupId={group.id}
        groupName={group.name}
        isOpen={linking}
        onClose={(linked) => {
          setLinking(false);
          if (linked > 0) {
            setNotice(linked === 1 ? '1 business linked.' : `${linked} businesses linked.`);
            list.reload();
          }
        }}
      />
      <ConfirmDialog
        title="Remove business?"
        isOpen={removing !== null}
        onOpenChange={(open) => !open && !pending && setRemoving(null)}
        cancelLabel="Keep business"
        confirmLabel="Remove business"
        onConfirm={() => void remove()}
        isPending={pending}
        error={removeError}
      >
        {removing && <p>{`${removing.name} will no longer be in the group ${group.name}.`}</p>}
        {groupArchived && <p className="warning-text">You won't be able to add it back unless group is unarchived.</p>}
      </ConfirmDialog>
    </>
  );
}
