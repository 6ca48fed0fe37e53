import type { Business } from '@medlocker/core';
import { useState } from 'react';
import { ListBox, ListBoxItem, ListBoxLoadMoreItem, type Selection } from 'react-aria-components';
import { rpc } from '../../api/client.ts';
import { type PagedQuery, useDebounced, usePagedQuery } from '../../api/queries.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogFooter } from '../../ui/Dialog.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { useAction } from '../../ui/use-action.ts';
import { addressText } from '../businesses/entity-parts.tsx';
import { t } from './i18n/index.ts';

const searchDebounceMs = 500;

/**
 * SPEC §2 'Link businesses': a searchable multi-select of the active businesses in no group, paged
 * in as it scrolls; the choices survive a new search. Cancel leaves things as they are.
 */
export function LinkBusinessesDialog({
  groupId,
  groupName,
  isOpen,
  onClose,
}: {
  groupId: string;
  groupName: string;
  isOpen: boolean;
  onClose: (linked: number) => void;
}) {
  const [search, setSearch] = useState('');
  const filterText = useDebounced(search.trim(), searchDebounceMs);
  const [chosen, setChosen] = useState<Map<string, string>>(new Map());
  const { pending, error, setError, run } = useAction();
  const list = usePagedQuery(
    async (nextToken, signal) => {
      if (!isOpen) return { items: [], nextToken: null };
      const page = await rpc(
        'businesses',
        'listUngroupedBusinesses',
        { filterText: filterText || undefined, nextToken },
        { signal },
      );
      return { items: page.businesses, nextToken: page.nextToken };
    },
    ['businesses', 'listUngroupedBusinesses', filterText, isOpen],
  );

  const close = (linked: number) => {
    setChosen(new Map());
    setSearch('');
    setError(undefined);
    onClose(linked);
  };

  const confirm = () =>
    run(async () => {
      const { linked } = await rpc('businesses', 'linkGroup', { groupId, businessIds: [...chosen.keys()] });
      close(linked.length);
    });

  const onSelectionChange = (selection: Selection) => {
    const next = new Map<string, string>();
    // Chosen businesses not in the current search stay chosen.
    const visible = new Set(list.items.map((b) => b.id));
    for (const [id, name] of chosen) if (!visible.has(id)) next.set(id, name);
    for (const b of list.items) if (selection === 'all' || selection.has(b.id)) next.set(b.id, b.name);
    setChosen(next);
  };

  return (
    <Dialog title={t('groups.linkDialog.title')} isOpen={isOpen} onOpenChange={(open) => !open && !pending && close(0)}>
      <div className="dialog__body link-dialog">
        <p>{t('groups.linkDialog.lead', { group: groupName })}</p>
        <SearchField
          label={t('groups.linkDialog.search')}
          placeholder={t('groups.linkDialog.searchPlaceholder')}
          value={search}
          onChange={setSearch}
        />
        <BusinessListBox list={list} chosen={chosen} onSelectionChange={onSelectionChange} />
        <p role="status">{t('groups.linkDialog.chosen', { count: chosen.size })}</p>
      </div>
      <DialogFooter error={error} onCancel={() => close(0)} pending={pending}>
        <Button variant="primary" onPress={() => void confirm()} isPending={pending} isDisabled={chosen.size === 0}>
          {t('groups.linkDialog.confirm')}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}

type Ungrouped = PagedQuery<Business>;

/** The businesses found, each chosen or not, paged in as the list scrolls. */
function BusinessListBox({
  list,
  chosen,
  onSelectionChange,
}: {
  list: Ungrouped;
  chosen: Map<string, string>;
  onSelectionChange: (selection: Selection) => void;
}) {
  return (
    <ListBox
      aria-label={t('groups.linkDialog.list')}
      className="listbox link-dialog__list"
      selectionMode="multiple"
      selectedKeys={new Set(chosen.keys())}
      onSelectionChange={onSelectionChange}
      renderEmptyState={() => (
        <div className="listbox__empty">
          {list.isLoading ? t('groups.linkDialog.loading') : t('groups.linkDialog.empty')}
        </div>
      )}
    >
      {list.items.map((b) => (
        <ListBoxItem key={b.id} id={b.id} className="listbox__item" textValue={b.name}>
          <span className="listbox__label">{b.name}</span>
          <span className="listbox__detail">{addressText(b.address)}</span>
        </ListBoxItem>
      ))}
      {list.hasMore && (
        <ListBoxLoadMoreItem className="listbox__more" onLoadMore={list.loadMore} isLoading={list.isLoading}>
          {t('groups.linkDialog.loadingMore')}
        </ListBoxLoadMoreItem>
      )}
    </ListBox>
  );
}
