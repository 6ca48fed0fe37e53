import { useState } from 'react';
import type { Key } from 'react-aria-components';
import { rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { ComboBox, type ComboBoxOption } from '../../ui/ComboBox.tsx';
import { t } from './i18n/index.ts';

export type ResourceKind = 'business' | 'group';

export type ResourcePickerProps = {
  kind: ResourceKind;
  selectedId: string | null;
  /** The selected resource's name when known beforehand (e.g. arriving from a business page). */
  selectedName?: string;
  onChange: (resource: { id: string; name: string } | null) => void;
  errorMessage?: string;
  isInvalid?: boolean;
};

const searchDebounceMs = 500;

function addressLine(address: { line1: string | null; postTown: string | null; postcode: string | null }) {
  return [address.line1, address.postTown, address.postcode].filter(Boolean).join(', ');
}

/**
 * SPEC §2 searchable select with keyboard navigation and lazy loading, over the businesses or
 * groups the server knows: typing filters by name prefix on the server; scrolling loads more.
 */
export function ResourcePicker({
  kind,
  selectedId,
  selectedName,
  onChange,
  errorMessage,
  isInvalid,
}: ResourcePickerProps) {
  const [inputValue, setInputValue] = useState(selectedName ?? '');
  const [selectedLabel, setSelectedLabel] = useState(selectedName ?? '');
  // Typing the selected item's own name (which the combobox does on selection) is not a search.
  const typed = inputValue === selectedLabel ? '' : inputValue.trim();
  const filter = useDebounced(typed, searchDebounceMs);

  const list = usePagedQuery<ComboBoxOption>(
    async (nextToken, signal) => {
      if (kind === 'business') {
        const page = await rpc(
          'businesses',
          'listBusinessesInfo',
          { filter: filter || undefined, nextToken },
          { signal },
        );
        return {
          items: page.data.map((b) => ({ id: b.id, label: b.name, detail: addressLine(b.address) || undefined })),
          nextToken: page.nextToken,
        };
      }
      const page = await rpc('groups', 'listGroupsInfo', { filter: filter || undefined, nextToken }, { signal });
      return { items: page.data.map((g) => ({ id: g.id, label: g.name })), nextToken: page.nextToken };
    },
    [kind === 'business' ? 'businesses' : 'groups', 'picker', kind, filter],
  );

  const business = kind === 'business';
  const label = business ? t('users.picker.business') : t('users.picker.group');
  // The chosen option stays in the list while a new search loads, so the combobox keeps showing it.
  const items =
    selectedId && selectedLabel && !list.items.some((i) => i.id === selectedId)
      ? [{ id: selectedId, label: selectedLabel }, ...list.items]
      : list.items;

  return (
    <ComboBox
      label={label}
      name="resourceId"
      placeholder={business ? t('users.picker.searchBusiness') : t('users.picker.searchGroup')}
      description={selectedId && !selectedLabel ? t('users.picker.selected', { id: selectedId }) : undefined}
      items={items}
      inputValue={inputValue}
      onInputChange={setInputValue}
      selectedKey={selectedId}
      onSelectionChange={(key: Key | null) => {
        const item = items.find((i) => i.id === key);
        setSelectedLabel(item?.label ?? '');
        onChange(item ? { id: String(item.id), name: item.label } : null);
      }}
      onLoadMore={list.hasMore ? list.loadMore : undefined}
      isLoading={list.isLoading}
      emptyText={business ? t('users.picker.noBusiness') : t('users.picker.noGroup')}
      errorMessage={errorMessage}
      isInvalid={isInvalid}
      isRequired
    />
  );
}
