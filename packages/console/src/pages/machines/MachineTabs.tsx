import { type Bag, formatDateTime, type MachineEvent, type MachineStatus, machineAlerts } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { usePagedQuery } from '../../api/queries.ts';
import { PagedList } from '../../ui/PagedList.tsx';
import type { VirtualColumn } from '../../ui/VirtualList.tsx';
import { LevelBadge } from './MachineStatusBadges.tsx';

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

/** The machine's events, newest first; events pushed by the hub appear on top without a reload. */
export function MachineEvents({ machineId, pushed }: { machineId: string; pushed: MachineEvent[] }) {
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc('machines', 'listEvents', { machineId, nextToken }, { signal });
      return { items: page.events, nextToken: page.nextToken };
    },
    [machineId],
  );
  const known = new Set(list.items.map((e) => e.id));
  const items = [...pushed.filter((e) => !known.has(e.id)), ...list.items];
  return <PagedList query={list} items={items} label="Events" columns={eventColumns} emptyText="No events yet." />;
}

const bagColumns: VirtualColumn<Bag>[] = [
  { key: 'location', header: 'Location', width: '8rem', render: (b) => b.location ?? '—' },
  { key: 'barcode', header: 'Barcode', width: 'minmax(10rem, 1fr)', render: (b) => b.barcode },
  { key: 'reference', header: 'Reference', width: 'minmax(8rem, 1fr)', render: (b) => b.reference ?? '—' },
  { key: 'loaded', header: 'Loaded', width: '11rem', render: (b) => formatDateTime(b.created) },
];

/** The bags the machine holds now; a bag loaded or taken out reloads the list. */
export function MachineContents({
  businessId,
  machineId,
  changes,
}: {
  businessId: string;
  machineId: string;
  changes: number;
}) {
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc('bags', 'listBags', { businessId, machineId, nextToken }, { signal });
      return { items: page.bags, nextToken: page.nextToken };
    },
    [businessId, machineId, changes],
  );
  return <PagedList query={list} label="Contents" columns={bagColumns} emptyText="The machine is empty." />;
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

/** The locker's status reports, newest first; a new report reloads the list. */
export function MachineStatusReports({ machineId, reports }: { machineId: string; reports: number }) {
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc('machines', 'listMachineStatus', { machineId, nextToken }, { signal });
      return { items: page.statuses, nextToken: page.nextToken };
    },
    [machineId, reports],
  );
  return <PagedList query={list} label="Status reports" columns={statusColumns} emptyText="No status reports yet." />;
}
