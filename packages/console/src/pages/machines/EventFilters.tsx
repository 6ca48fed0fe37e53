import {
  type Level,
  type MachineAlertCode,
  type MachineEvent,
  machineAlertCodes,
  machineAlerts,
} from '@medlocker/core';
import { useState } from 'react';
import { ComboBox, type ComboBoxOption } from '../../ui/ComboBox.tsx';
import { Select } from '../../ui/Select.tsx';
import { t } from './i18n/index.ts';

export type EventFilter = { level: Level | null; code: string | null };

/** Whether an event (one pushed live, say) passes the filter the list was fetched with. */
export const matchesEventFilter = (event: MachineEvent, { level, code }: EventFilter) =>
  (level === null || event.level === level) && (code === null || event.code === code);

// Most severe first, as staff look for them.
const levelOptions = () => [
  { id: 'all', label: t('machines.events.allLevels') },
  ...(['critical', 'error', 'warn', 'info'] as const satisfies readonly Level[]).map((level) => ({
    id: level,
    label: level,
  })),
];

const codeOptions: ComboBoxOption[] = machineAlertCodes.map((code: MachineAlertCode) => ({
  id: code,
  label: `${code} ${machineAlerts[code].name}`,
}));

// 'alarm trig', 'em_0016', '0016' and 'AlarmTriggered' all find EM_0016 AlarmTriggered.
const searchable = (text: string) => text.toLowerCase().replace(/[\s_]/g, '');

/**
 * The Events tab's filters: a level, and a code picked from SPEC §8's EM_/MP_ codes by typing part of
 * the code or its name (clearing the text shows every code again).
 */
export function EventFilters({ filter, onChange }: { filter: EventFilter; onChange: (filter: EventFilter) => void }) {
  const selectedLabel = codeOptions.find((o) => o.id === filter.code)?.label ?? '';
  const [input, setInput] = useState(selectedLabel);
  // The chosen code's own label in the box is not a search: the whole list opens.
  const typed = input === selectedLabel ? '' : searchable(input);
  const items = typed ? codeOptions.filter((o) => searchable(o.label).includes(typed)) : codeOptions;

  return (
    <>
      <Select
        label={t('machines.events.level')}
        options={levelOptions()}
        selectedKey={filter.level ?? 'all'}
        onSelectionChange={(key) =>
          onChange({ ...filter, level: key === 'all' || key === null ? null : (key as Level) })
        }
      />
      <ComboBox
        label={t('machines.events.code')}
        placeholder={t('machines.events.allCodes')}
        className="toolbar__search"
        items={items}
        inputValue={input}
        onInputChange={(text) => {
          setInput(text);
          if (text === '' && filter.code !== null) onChange({ ...filter, code: null });
        }}
        selectedKey={filter.code}
        onSelectionChange={(key) => {
          const option = codeOptions.find((o) => o.id === key);
          setInput(option?.label ?? '');
          onChange({ ...filter, code: option ? String(option.id) : null });
        }}
        emptyText={t('machines.events.noSuchCode')}
      />
    </>
  );
}
