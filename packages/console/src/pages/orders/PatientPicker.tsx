import type { Patient } from '@medlocker/core';
import { useState } from 'react';
import type { Key } from 'react-aria-components';
import { rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { ComboBox, type ComboBoxOption } from '../../ui/ComboBox.tsx';
import { dateOfBirthOf, displayIdOf } from '../patients/patient-format.ts';
import { t } from './i18n/index.ts';

/** A patient as the picker shows it: the name, and the ID and date of birth that tell namesakes apart. */
export type PickedPatient = { id: string; label: string; detail: string };

export const pickedPatientOf = (p: Pick<Patient, 'id' | 'name' | 'displayId' | 'dateOfBirth'>): PickedPatient => ({
  id: p.id,
  label: p.name,
  detail: t('orders.create.patientDetail', {
    displayId: displayIdOf(p.displayId),
    dateOfBirth: dateOfBirthOf(p.dateOfBirth),
  }),
});

// SPEC §9: search fields wait 500 ms after the last key.
const searchDebounceMs = 500;

/**
 * SPEC §2's searchable select over the business's current patients: typing searches on the server (name,
 * ID, mobile or email prefix), scrolling loads the next page. The list loads only once it is opened or
 * typed in. `selected` may change from outside (a patient just added in the quick dialog).
 */
export function PatientPicker({
  businessId,
  selected,
  onChange,
  errorMessage,
}: {
  businessId: string;
  selected: PickedPatient | null;
  onChange: (patient: PickedPatient | null) => void;
  /** The server's message about the patient sent (REQUIRED, NOT_FOUND, DELETED). */
  errorMessage?: string;
}) {
  const [inputValue, setInputValue] = useState(selected?.label ?? '');
  const [shownFor, setShownFor] = useState(selected);
  const [opened, setOpened] = useState(false);
  if (shownFor !== selected) {
    // Chosen here or elsewhere: the box shows its name (React's "adjust state on a prop change").
    setShownFor(selected);
    if (selected) setInputValue(selected.label);
  }
  // The chosen patient's own name in the box is not a search.
  const typed = selected && inputValue === selected.label ? '' : inputValue.trim();
  const filter = useDebounced(typed, searchDebounceMs);

  const list = usePagedQuery<ComboBoxOption>(
    async (nextToken, signal) => {
      if (!opened) return { items: [], nextToken: null };
      const page = await rpc(
        'patients',
        'list',
        { businessId, onlyCurrent: true, filter: filter || undefined, nextToken },
        { signal },
      );
      return { items: page.patients.map(pickedPatientOf), nextToken: page.nextToken };
    },
    ['patients', 'list', businessId, 'picker', filter, opened],
  );
  // The chosen patient stays an option while another search loads, so the box keeps its name.
  const items = selected && !list.items.some((i) => i.id === selected.id) ? [selected, ...list.items] : list.items;

  return (
    <ComboBox
      label={t('orders.create.patient')}
      name="patientId"
      placeholder={t('orders.create.patientSearch')}
      items={items}
      inputValue={inputValue}
      onInputChange={(value) => {
        setOpened(true);
        setInputValue(value);
      }}
      onOpenChange={(isOpen) => {
        if (isOpen) setOpened(true);
      }}
      selectedKey={selected?.id ?? null}
      onSelectionChange={(key: Key | null) => {
        const item = items.find((i) => i.id === key);
        onChange(item ? { id: String(item.id), label: item.label, detail: item.detail ?? '' } : null);
      }}
      onLoadMore={list.hasMore ? list.loadMore : undefined}
      isLoading={list.isLoading}
      emptyText={t('orders.create.noPatients')}
      errorMessage={errorMessage}
      isInvalid={errorMessage !== undefined}
      isRequired
    />
  );
}
