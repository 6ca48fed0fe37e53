import { type Bag, formatDateTime, type MachineEvent, type MachineStatus, machineAlerts } from '@medlocker/core';
import { useAtomValue, useSetAtom } from 'jotai';
import { rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import {
  type MachineTabFilters,
  machineTabFiltersAtom,
  noMachineTabFilters,
  setMachineTabFiltersAtom,
} from '../../state/machines.ts';
import { PagedList } from '../../ui/PagedList.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import type { VirtualColumn } from '../../ui/VirtualList.tsx';
import { EventFilters, matchesEventFilter } from './EventFilters.tsx';
import { LevelBadge } from './MachineStatusBadges.tsx';

/** This machine page's tab filters, kept for the session (SPEC §2), and a setter for some of them. */
function useTabFilters(machineId: string) {
  const filters = useAtomValue(machineTabFiltersAtom)[machineId] ?? noMachineTabFilters;
  const set = useSetAtom(setMachineTabFiltersAtom);
  return [filters, (change: Partial<MachineTabFilters>) => set(machineId, change)] as const;
}

const codeName = (code: string) => machineAlerts[code as keyof typeof machineAlerts]?.name;

const eventColumns: VirtualColumn<MachineEvent>[] = [
  { key: 'when', header: 'When', width: '11rem', render: (e) => formatDateTime(e.created) },
  {
    key: 'code',
    header: 'Code',
    width: 'minmax(9rem, 1fr)',
    render: (e) => (
      <span>
        {e.code}
        {codeName(e.code) && <span className="muted"> {codeName(e.code)}</span>}
      </span>
    ),
  },
  { key: 'level', header: 'Level', width: '6rem', render: (e) => <LevelBadge level={e.level} /> },
  { key: 'message', header: 'Message', width: 'minmax(12rem, 2fr)', render: (e) => e.message || e.barcode || '—' },
];

/**
 * The machine's events, newest first, of one level and code if chosen; events pushed by the hub that
 * pass the filter appear on top without a reload.
 */
export function MachineEvents({ machineId, pushed }: { machineId: string; pushed: MachineEvent[] }) {
  const [filters, setFilters] = useTabFilters(machineId);
  const filter = { level: filters.eventLevel, code: filters.eventCode };
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc(
        'machines',
        'listEvents',
        { machineId, level: filter.level ?? undefined, code: filter.code ?? undefined, nextToken },
        { signal },
      );
      return { items: page.events, nextToken: page.nextToken };
    },
    ['machines', 'listEvents', machineId, filter.level, filter.code],
  );
  const known = new Set(list.items.map((e) => e.id));
  const items = [...pushed.filter((e) => !known.has(e.id) && matchesEventFilter(e, filter)), ...list.items];
  const filtered = filter.level !== null || filter.code !== null;
  return (
    <>
      <EventFilters
        filter={filter}
        onChange={({ level, code }) => setFilters({ eventLevel: level, eventCode: code })}
      />
      <PagedList
        query={list}
        items={items}
        label="Events"
        columns={eventColumns}
        emptyText={filtered ? 'No events match these filters.' : 'No events yet.'}
      />
    </>
  );
}

const bagColumns: VirtualColumn<Bag>[] = [
  { key: 'location', header: 'Location', width: '8rem', render: (b) => b.location ?? '—' },
  { key: 'barcode', header: 'Barcode', width: 'minmax(10rem, 1fr)', render: (b) => b.barcode },
  { key: 'reference', header: 'Reference', width: 'minmax(8rem, 1fr)', render: (b) => b.reference ?? '—' },
  { key: 'loaded', header: 'Loaded', width: '11rem', render: (b) => formatDateTime(b.created) },
];

/** The bags the machine holds now, found by the start of a barcode, reference or slot in any case; a bag loaded or taken out reloads the list. */
export function MachineContents({
  businessId,
  machineId,
  changes,
}: {
  businessId: string;
  machineId: string;
  changes: number;
}) {
  const [filters, setFilters] = useTabFilters(machineId);
  // SPEC §9: a search waits 500 ms after the last key.
  const filter = useDebounced(filters.contentsSearch.trim(), 500);
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc(
        'bags',
        'listBags',
        { businessId, machineId, filter: filter || undefined, nextToken },
        { signal },
      );
      return { items: page.bags, nextToken: page.nextToken };
    },
    ['bags', 'listBags', businessId, machineId, filter, changes],
  );
  return (
    <>
      <div className="toolbar">
        <SearchField
          label="Search"
          placeholder="Barcode, reference or slot"
          value={filters.contentsSearch}
          onChange={(contentsSearch) => setFilters({ contentsSearch })}
          className="toolbar__search"
        />
      </div>
      <PagedList
        query={list}
        label="Contents"
        columns={bagColumns}
        emptyText={filter ? `No bag in the machine matches “${filter}”.` : 'The machine is empty.'}
      />
    </>
  );
}

const statusColumns: VirtualColumn<MachineStatus>[] = [
  { key: 'when', header: 'When', width: '11rem', render: (s) => formatDateTime(s.created) },
  {
    key: 'observations',
    header: 'Observations',
    width: '1fr',
    render: (s) => (
      <span className="observations">
        {Object.entries(s.observations)
          .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
          .join(' · ')}
      </span>
    ),
  },
];

/**
 * The locker's status reports, newest first; a new report reloads the list. No filters: listMachineStatus
 * takes none (the observations are free-form, per locker maker).
 */
export function MachineStatusReports({ machineId, reports }: { machineId: string; reports: number }) {
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc('machines', 'listMachineStatus', { machineId, nextToken }, { signal });
      return { items: page.statuses, nextToken: page.nextToken };
    },
    ['machines', 'listMachineStatus', machineId, reports],
  );
  return <PagedList query={list} label="Status reports" columns={statusColumns} emptyText="No status reports yet." />;
}
