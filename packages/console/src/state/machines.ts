import type { Level, Machine, MachineEvent } from '@medlocker/core';
import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { type LivePush, onLivePush } from './live.ts';
import { store } from './store.ts';

const session = <T>(key: string, initial: T) =>
  atomWithStorage<T>(
    key,
    initial,
    createJSONStorage<T>(() => sessionStorage),
    { getOnInit: true },
  );

// SPEC §2: the machines list's filters are kept for the session (this tab).
const machinesSearchStorageAtom = session('medlocker.machines.search', '');
const machinesShowArchivedStorageAtom = session('medlocker.machines.showArchived', false);

export const machinesSearchAtom = atom(
  (get) => get(machinesSearchStorageAtom),
  (_get, set, text: string) => set(machinesSearchStorageAtom, text),
);
export const machinesShowArchivedAtom = atom(
  (get) => get(machinesShowArchivedStorageAtom),
  (_get, set, show: boolean) => set(machinesShowArchivedStorageAtom, show),
);

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
const machineTabFiltersStorageAtom = session<Record<string, MachineTabFilters>>('medlocker.machineTabs.filters', {});

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

/** What the hub told us about a machine since its page loaded; pages lay it over what they fetched. */
export type MachineLive = {
  machine?: Machine;
  online?: boolean;
  lastSeen?: number | null;
  temperature?: { average: number; lastExcursionAt: number | null; updated: number };
  /** Events pushed since the page loaded, newest first. */
  events: MachineEvent[];
  /** Bumped on each status report, so the status tab can reload. */
  statusReports: number;
  /** Bumped when a bag is loaded, removed or collected, so the contents tab can reload. */
  contentsChanges: number;
};

const liveByMachineAtom = atom<Record<string, MachineLive>>({});

/** The live state of every machine the tab hears about, by machine id. */
export const machineLiveAtom = atom((get) => get(liveByMachineAtom));

/** Forgets what was pushed for a machine (its page has just fetched everything afresh). */
export const resetMachineLiveAtom = atom(null, (get, set, machineId: string) => {
  const { [machineId]: _dropped, ...rest } = get(liveByMachineAtom);
  set(liveByMachineAtom, rest);
});

const empty = (): MachineLive => ({ events: [], statusReports: 0, contentsChanges: 0 });

function update(machineId: string, change: (before: MachineLive) => MachineLive) {
  const all = store.get(liveByMachineAtom);
  store.set(liveByMachineAtom, { ...all, [machineId]: change(all[machineId] ?? empty()) });
}

/** Reads the console hub's machine pushes into the store. */
export function applyMachinePush({ action, params }: LivePush): void {
  const p = params as Record<string, unknown> & { machine?: Machine; machineId?: string };
  const machineId = p.machine?.id ?? p.machineId ?? (p.entity === 'machine' ? (p.id as string) : undefined);
  if (action === 'statusUpdate' && machineId) {
    update(machineId, (m) => ({
      ...m,
      ...(p.machine ? { machine: p.machine } : {}),
      ...(typeof p.online === 'boolean' ? { online: p.online } : {}),
      ...('lastSeen' in p ? { lastSeen: p.lastSeen as number | null } : {}),
      statusReports: p.observations ? m.statusReports + 1 : m.statusReports,
      contentsChanges: p.contents ? m.contentsChanges + 1 : m.contentsChanges,
    }));
  } else if ((action === 'archived' || action === 'unarchived') && p.entity === 'machine' && machineId) {
    update(machineId, (m) => ({ ...m, ...(p.machine ? { machine: p.machine } : {}) }));
  } else if (action === 'machineEvent') {
    const event = p.event as MachineEvent | undefined;
    if (event) update(event.machineId, (m) => ({ ...m, events: [event, ...m.events].slice(0, 200) }));
  } else if (action === 'temperature' && machineId) {
    const temperature = p.temperatureStatus as MachineLive['temperature'];
    if (temperature) update(machineId, (m) => ({ ...m, temperature }));
  }
}

onLivePush(applyMachinePush);
