import {
  type Bag,
  type Level,
  type MachineEvent,
  type MachineStatus,
  machineAlertCodes,
  machineAlerts,
} from '@medlocker/core';
import { useMemo } from 'react';
import { type MachineTabFilters, machineTabFilterAtom } from '../../state/machines.ts';
import { choiceCodec, type UrlCodec, useUrlState } from '../../state/url-filter.ts';
import { createdColumn, type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { EventFilters } from './EventFilters.tsx';
import { t } from './i18n/index.ts';
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

const eventColumns = (): ListColumn<MachineEvent>[] => [
  createdColumn('when', t('machines.events.column.when')),
  {
    key: 'code',
    header: t('machines.events.column.code'),
    width: 'minmax(9rem, 1fr)',
    render: (e) => (
      <span>
        {e.code}
        {codeName(e.code) && <span className="muted"> {codeName(e.code)}</span>}
      </span>
    ),
  },
  {
    key: 'level',
    header: t('machines.events.column.level'),
    width: '6rem',
    render: (e) => <LevelBadge level={e.level} />,
  },
  {
    key: 'message',
    header: t('machines.events.column.message'),
    width: 'minmax(12rem, 2fr)',
    render: (e) => e.message || e.barcode || '—',
  },
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
      title={t('machines.events.title')}
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
      query={rpcListQuery(['machines', 'listEvents', machineId, level, code], 'events', (_search, nextToken) => ({
        machineId,
        level: level ?? undefined,
        code: code ?? undefined,
        nextToken,
      }))}
      label={t('machines.events.title')}
      columns={eventColumns()}
      emptyText={level !== null || code !== null ? t('machines.events.emptyFiltered') : t('machines.events.empty')}
    />
  );
}

const bagColumns = (): ListColumn<Bag>[] => [
  { key: 'location', header: t('machines.contents.column.location'), width: '8rem', render: (b) => b.location ?? '—' },
  {
    key: 'barcode',
    header: t('machines.contents.column.barcode'),
    width: 'minmax(10rem, 1fr)',
    render: (b) => b.barcode,
  },
  {
    key: 'reference',
    header: t('machines.contents.column.reference'),
    width: 'minmax(8rem, 1fr)',
    render: (b) => b.reference ?? '—',
  },
  createdColumn('loaded', t('machines.contents.column.loaded')),
];

/** The bags the machine holds now, found by the start of a barcode, reference or slot in any case; a bag loaded or taken out reloads the list. */
export function MachineContents({ businessId, machineId }: { businessId: string; machineId: string }) {
  const atom = useMemo(() => machineTabFilterAtom(machineId, 'contentsSearch'), [machineId]);
  return (
    <ListPage
      title={t('machines.contents.title')}
      frame="bare"
      reload={false}
      search={{ atom, placeholder: t('machines.contents.search'), param: 'contents' }}
      query={rpcListQuery(['bags', 'listBags', businessId, machineId], 'bags', (filter, nextToken) => ({
        businessId,
        machineId,
        filter,
        nextToken,
      }))}
      label={t('machines.contents.title')}
      columns={bagColumns()}
      emptyText={(filter) => (filter ? t('machines.contents.noMatch', { filter }) : t('machines.contents.empty'))}
    />
  );
}

const statusColumns = (): ListColumn<MachineStatus>[] => [
  createdColumn('when', t('machines.status.column.when')),
  {
    key: 'observations',
    header: t('machines.status.column.observations'),
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
      title={t('machines.status.title')}
      frame="bare"
      reload={false}
      query={rpcListQuery(['machines', 'listMachineStatus', machineId], 'statuses', (_search, nextToken) => ({
        machineId,
        nextToken,
      }))}
      label={t('machines.status.title')}
      columns={statusColumns()}
      emptyText={t('machines.status.empty')}
    />
  );
}
