import {
  type Bag,
  formatDateTime,
  type Level,
  type MachineEvent,
  type MachineStatus,
  machineAlertCodes,
  machineAlerts,
} from '@medlocker/core';
import { useMemo } from 'react';
import { rpc } from '../../api/client.ts';
import { type MachineTabFilters, machineTabFilterAtom } from '../../state/machines.ts';
import { choiceCodec, type UrlCodec, useUrlState } from '../../state/url-filter.ts';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { EventFilters } from './EventFilters.tsx';
import { LevelBadge } from './MachineStatusBadges.tsx';

const levelCodec = choiceCodec<Level>(['critical', 'error', 'warn', 'info']);
const codeCodec: UrlCodec<string | null> = choiceCodec<string>(machineAlertCodes);

/** One of this machine page's tab filters: in the URL (`?{param}=`), remembered for the session (SPEC §2). */
function useTabFilter<K extends keyof MachineTabFilters>(
  machineId: string,
  field: K,
  param: string,
  codec: UrlCodec<MachineTabFilters[K]>,
) {
  const atom = useMemo(() => machineTabFilterAtom(machineId, field), [machineId, field]);
  return useUrlState(param, atom, codec);
}

const codeName = (code: string) => machineAlerts[code as keyof typeof machineAlerts]?.name;

const eventColumns: ListColumn<MachineEvent>[] = [
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
export function MachineEvents({ machineId }: { machineId: string }) {
  const [level, setLevel] = useTabFilter(machineId, 'eventLevel', 'level', levelCodec);
  const [code, setCode] = useTabFilter(machineId, 'eventCode', 'code', codeCodec);
  const filter = { level, code };
  return (
    <ListPage
      title="Events"
      frame="bare"
      reload={false}
      filters={
        <EventFilters
          filter={filter}
          onChange={(next) => {
            if (next.level !== level) setLevel(next.level);
            if (next.code !== code) setCode(next.code);
          }}
        />
      }
      query={{
        key: ['machines', 'listEvents', machineId, level, code],
        load: async (_search, nextToken) => {
          const input = { machineId, level: level ?? undefined, code: code ?? undefined, nextToken };
          const page = await rpc('machines', 'listEvents', input);
          return { items: page.events, nextToken: page.nextToken };
        },
      }}
      label="Events"
      columns={eventColumns}
      emptyText={level !== null || code !== null ? 'No events match these filters.' : 'No events yet.'}
    />
  );
}

const bagColumns: ListColumn<Bag>[] = [
  { key: 'location', header: 'Location', width: '8rem', render: (b) => b.location ?? '—' },
  { key: 'barcode', header: 'Barcode', width: 'minmax(10rem, 1fr)', render: (b) => b.barcode },
  { key: 'reference', header: 'Reference', width: 'minmax(8rem, 1fr)', render: (b) => b.reference ?? '—' },
  { key: 'loaded', header: 'Loaded', width: '11rem', render: (b) => formatDateTime(b.created) },
];

/** The bags the machine holds now, found by the start of a barcode, reference or slot in any case; a bag loaded or taken out reloads the list. */
export function MachineContents({ businessId, machineId }: { businessId: string; machineId: string }) {
  const atom = useMemo(() => machineTabFilterAtom(machineId, 'contentsSearch'), [machineId]);
  return (
    <ListPage
      title="Contents"
      frame="bare"
      reload={false}
      search={{ atom, placeholder: 'Barcode, reference or slot', param: 'contents' }}
      query={{
        key: ['bags', 'listBags', businessId, machineId],
        load: async (filter, nextToken) => {
          const page = await rpc('bags', 'listBags', { businessId, machineId, filter, nextToken });
          return { items: page.bags, nextToken: page.nextToken };
        },
      }}
      label="Contents"
      columns={bagColumns}
      emptyText={(filter) => (filter ? `No bag in the machine matches “${filter}”.` : 'The machine is empty.')}
    />
  );
}

const statusColumns: ListColumn<MachineStatus>[] = [
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
export function MachineStatusReports({ machineId }: { machineId: string }) {
  return (
    <ListPage
      title="Status reports"
      frame="bare"
      reload={false}
      query={{
        key: ['machines', 'listMachineStatus', machineId],
        load: async (_search, nextToken) => {
          const page = await rpc('machines', 'listMachineStatus', { machineId, nextToken });
          return { items: page.statuses, nextToken: page.nextToken };
        },
      }}
      label="Status reports"
      columns={statusColumns}
      emptyText="No status reports yet."
    />
  );
}
