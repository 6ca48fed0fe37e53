import type { Level, Machine, MachineEvent } from '@medlocker/core';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { atom, type WritableAtom } from 'jotai';
import type { RpcOutput } from '../api/client.ts';
import { type Page, queryClient } from '../api/queries.ts';
import { keptAtom } from './kept.ts';
import { type LivePush, onLivePush } from './live.ts';

// SPEC §2: the machines list's filters are kept for the session (this tab).
export const machinesSearchAtom = keptAtom('medlocker.machines.search', '');
export const machinesShowArchivedAtom = keptAtom('medlocker.machines.showArchived', false);
/** Support's filter: the business's QA test machines instead of its real ones (docs/decisions/machines.md). */
export const machinesShowTestAtom = keptAtom('medlocker.machines.showTest', false);

/** The filters of a machine page's tabs; the Status tab has none (listMachineStatus takes none). */
export type MachineTabFilters = {
  /** Events of this level only; null for every level. */
  eventLevel: Level | null;
  /** Events of this code only (EM_ or MP_); null for every code. */
  eventCode: string | null;
  /** The Contents tab's search as typed (the start of a barcode, reference or slot, in any case). */
  contentsSearch: string;
};

export const noMachineTabFilters: MachineTabFilters = { eventLevel: null, eventCode: null, contentsSearch: '' };

// SPEC §2: machine events/contents filters are kept for the session, each machine page its own.
const machineTabFiltersStorageAtom = keptAtom<Record<string, MachineTabFilters>>('medlocker.machineTabs.filters', {});

/** The tab filters of each machine page visited this session, by machine id. */
export const machineTabFiltersAtom = atom((get) => get(machineTabFiltersStorageAtom));

/** Changes some of one machine page's tab filters. */
export const setMachineTabFiltersAtom = atom(
  null,
  (get, set, machineId: string, change: Partial<MachineTabFilters>) => {
    const all = get(machineTabFiltersStorageAtom);
    set(machineTabFiltersStorageAtom, {
      ...all,
      [machineId]: { ...noMachineTabFilters, ...all[machineId], ...change },
    });
  },
);

const tabFilterAtoms = new Map<string, WritableAtom<unknown, [never], void>>();

/**
 * One filter of one machine page, remembered for the session; the page keeps it in the URL too
 * (`?level=`, `?code=`, `?contents=`, state/url-filter.ts). The same atom for the same machine and field.
 */
export function machineTabFilterAtom<K extends keyof MachineTabFilters>(
  machineId: string,
  field: K,
): WritableAtom<MachineTabFilters[K], [MachineTabFilters[K]], void> {
  const key = `${machineId}\n${field}`;
  let held = tabFilterAtoms.get(key);
  if (!held) {
    held = atom(
      (get) => (get(machineTabFiltersStorageAtom)[machineId] ?? noMachineTabFilters)[field],
      (_get, set, value: MachineTabFilters[K]) => set(setMachineTabFiltersAtom, machineId, { [field]: value }),
    ) as unknown as WritableAtom<unknown, [never], void>;
    tabFilterAtoms.set(key, held);
  }
  return held as unknown as WritableAtom<MachineTabFilters[K], [MachineTabFilters[K]], void>;
}

type MachineAnswer = RpcOutput<'machines', 'getMachine'>;
type MachineRow = RpcOutput<'machines', 'listMachines'>['machines'][number];
type Pages<T> = InfiniteData<Page<T>, string | null>;

/** What a push says about a machine's connection and record; fields it does not carry are absent. */
type MachineChange = { machine?: Machine; online?: boolean; lastSeen?: number | null };

function changeMachine(client: QueryClient, id: string, change: MachineChange) {
  client.setQueryData<MachineAnswer>(['machines', 'getMachine', id], (before) => before && { ...before, ...change });
  // Not every answer under the key is pages: the order form's machine picker keeps every machine in one
  // array (pages/orders/MachinePicker.tsx), which the invalidation that follows the push reads again.
  client.setQueriesData<Pages<MachineRow>>({ queryKey: ['machines', 'listMachines'] }, (data) =>
    isPages(data) && data.pages.some((page) => page.items.some((m) => m.id === id))
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((m) => (m.id === id ? { ...m, ...change.machine, ...withoutMachine(change) } : m)),
          })),
        }
      : data,
  );
}

const withoutMachine = ({ machine: _machine, ...rest }: MachineChange) => rest;

const isPages = <T>(data: Pages<T> | undefined): data is Pages<T> => Array.isArray(data?.pages);

/**
 * Puts an event pushed by the hub on top of the machine's cached event lists whose filter it passes.
 * Their keys are `['machines', 'listEvents', machineId, level, code, …]` (pages/machines/MachineTabs.tsx).
 */
function addEvent(client: QueryClient, event: MachineEvent) {
  client.setQueriesData<Pages<MachineEvent>>(
    {
      queryKey: ['machines', 'listEvents', event.machineId],
      predicate: ({ queryKey: [, , , level, code] }) =>
        (level == null || level === event.level) && (code == null || code === event.code),
    },
    (data) => {
      const [first, ...rest] = data?.pages ?? [];
      if (!data || !first) return data;
      const items = [event, ...first.items.filter((e) => e.id !== event.id)];
      return { ...data, pages: [{ ...first, items }, ...rest] };
    },
  );
}

/**
 * Reads the console hub's machine pushes into the server-state cache (api/queries.ts): a machine's
 * record, connection and temperature into its cached `getMachine` answer and its rows of cached machine
 * lists, a new event on top of its cached event lists. Lists the push changes in ways it does not carry
 * (status reports, the bags a machine holds) are made stale by state/invalidate.ts.
 */
export function applyMachinePush({ action, params }: LivePush, client: QueryClient = queryClient): void {
  const p = params as Record<string, unknown> & { machine?: Machine; machineId?: string };
  const machineId = p.machine?.id ?? p.machineId ?? (p.entity === 'machine' ? (p.id as string) : undefined);
  if (action === 'statusUpdate' && machineId) {
    changeMachine(client, machineId, {
      ...(p.machine ? { machine: p.machine } : {}),
      ...(typeof p.online === 'boolean' ? { online: p.online } : {}),
      ...('lastSeen' in p ? { lastSeen: p.lastSeen as number | null } : {}),
    });
  } else if ((action === 'archived' || action === 'unarchived') && p.entity === 'machine' && machineId && p.machine) {
    changeMachine(client, machineId, { machine: p.machine });
  } else if (action === 'machineEvent') {
    const event = p.event as MachineEvent | undefined;
    if (event) addEvent(client, event);
  } else if (action === 'temperature' && machineId) {
    const t = p.temperatureStatus as { average: number; lastExcursionAt: number | null; updated: number } | undefined;
    const before = client.getQueryData<MachineAnswer>(['machines', 'getMachine', machineId]);
    if (t && before) {
      const readings = before.machine.temperatureStatus?.readings ?? [];
      changeMachine(client, machineId, { machine: { ...before.machine, temperatureStatus: { ...t, readings } } });
    }
  }
}

onLivePush((push) => applyMachinePush(push));
