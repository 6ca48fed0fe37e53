import { alarmTemplateCodes, type Machine, type MachineEvent, temperatureRange } from '@medlocker/core';
import { atom } from 'jotai';
import { rpc } from '../api/client.ts';
import { type LivePush, onLivePush } from './live.ts';
import { store } from './store.ts';

/**
 * The fleet at a glance (the dashboard). The api has no fleet summary yet, so it is gathered from
 * listBusinesses → listMachines per business → the first page of each machine's events, then kept
 * current by the hub's fleet pushes.
 */

export type FleetMachine = { machine: Machine; online: boolean; lastSeen: number | null; businessName: string };

/** How far back an alarm counts as active on the dashboard. */
export const ACTIVE_ALARM_MS = 24 * 60 * 60 * 1000;
const alarmCodes = new Set<string>(alarmTemplateCodes);

/** An event the dashboard counts as an alarm: one with an alarm message, or critical or error. */
export const isAlarm = (e: MachineEvent) => alarmCodes.has(e.code) || e.level === 'critical' || e.level === 'error';

/** A machine's temperature is out of the allowed band now (its 3-hour average). */
export const hasExcursion = (m: Machine) =>
  m.temperatureStatus !== null &&
  (m.temperatureStatus.average < temperatureRange.min || m.temperatureStatus.average > temperatureRange.max);

type Fleet = {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error?: unknown;
  machines: Record<string, FleetMachine>;
  alarms: MachineEvent[];
};

const fleetStateAtom = atom<Fleet>({ status: 'idle', machines: {}, alarms: [] });

/** The dashboard's data. */
export const fleetAtom = atom((get) => get(fleetStateAtom));

async function allPages<T>(load: (nextToken: string | null) => Promise<{ items: T[]; nextToken: string | null }>) {
  const out: T[] = [];
  let token: string | null = null;
  do {
    const page = await load(token);
    out.push(...page.items);
    token = page.nextToken;
  } while (token);
  return out;
}

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return out;
}

/** Loads (or reloads) the whole fleet; `signal` stops it when the dashboard is left. */
export const loadFleetAtom = atom(null, async (get, set, signal?: AbortSignal) => {
  set(fleetStateAtom, { ...get(fleetStateAtom), status: 'loading', error: undefined });
  const options = { signal };
  try {
    const businesses = await allPages(async (nextToken) => {
      const page = await rpc('businesses', 'listBusinesses', { archived: false, nextToken }, options);
      return { items: page.businesses, nextToken: page.nextToken };
    });
    const lists = await inBatches(businesses, 6, async (b) =>
      (
        await allPages(async (nextToken) => {
          const page = await rpc('machines', 'listMachines', { businessId: b.id, archived: false, nextToken }, options);
          return { items: page.machines, nextToken: page.nextToken };
        })
      ).map((m) => ({ machine: m, online: m.online, lastSeen: m.lastSeen, businessName: b.name })),
    );
    const machines: Record<string, FleetMachine> = {};
    for (const m of lists.flat()) machines[m.machine.id] = m;
    const since = Date.now() - ACTIVE_ALARM_MS;
    const events = await inBatches(Object.keys(machines), 6, async (machineId) =>
      (await rpc('machines', 'listEvents', { machineId }, options)).events.filter(
        (e) => e.created >= since && isAlarm(e),
      ),
    );
    const alarms = events.flat().sort((a, b) => b.created - a.created);
    // Pushes that arrived while loading are in the state already; keep the newer of each.
    const during = get(fleetStateAtom);
    const seen = new Set(alarms.map((a) => a.id));
    set(fleetStateAtom, {
      status: 'ready',
      machines: { ...machines, ...during.machines },
      alarms: [...during.alarms.filter((a) => !seen.has(a.id)), ...alarms],
    });
  } catch (error) {
    if (signal?.aborted) {
      set(fleetStateAtom, { ...get(fleetStateAtom), status: 'idle' });
      return;
    }
    set(fleetStateAtom, { ...get(fleetStateAtom), status: 'error', error });
  }
});

function change(apply: (fleet: Fleet) => Fleet) {
  store.set(fleetStateAtom, apply(store.get(fleetStateAtom)));
}

/** Reads the hub's fleet pushes into the dashboard's state. */
export function applyFleetPush({ action, params }: LivePush): void {
  const p = params as Record<string, unknown> & { machine?: Machine; machineId?: string };
  if (store.get(fleetStateAtom).status === 'idle') return;
  if (action === 'statusUpdate' && p.machine) {
    const machine = p.machine;
    change((f) => {
      const before = f.machines[machine.id];
      const next: FleetMachine = {
        machine,
        online: typeof p.online === 'boolean' ? p.online : (before?.online ?? false),
        lastSeen: 'lastSeen' in p ? (p.lastSeen as number | null) : (before?.lastSeen ?? null),
        businessName: before?.businessName ?? '',
      };
      return { ...f, machines: { ...f.machines, [machine.id]: next } };
    });
  } else if (action === 'archived' && p.entity === 'machine' && typeof p.id === 'string') {
    const id = p.id;
    change((f) => {
      const { [id]: _gone, ...machines } = f.machines;
      return { ...f, machines, alarms: f.alarms.filter((a) => a.machineId !== id) };
    });
  } else if (action === 'unarchived' && p.entity === 'machine' && p.machine) {
    const machine = p.machine;
    change((f) => ({
      ...f,
      machines: { ...f.machines, [machine.id]: { machine, online: false, lastSeen: null, businessName: '' } },
    }));
  } else if (action === 'machineEvent') {
    const event = p.event as MachineEvent | undefined;
    if (event && isAlarm(event))
      change((f) => ({ ...f, alarms: [event, ...f.alarms.filter((a) => a.id !== event.id)] }));
  } else if (action === 'temperature' && p.machineId) {
    const id = p.machineId;
    const t = p.temperatureStatus as { average: number; lastExcursionAt: number | null; updated: number };
    change((f) => {
      const before = f.machines[id];
      if (!before || !t) return f;
      const readings = before.machine.temperatureStatus?.readings ?? [];
      const machine = { ...before.machine, temperatureStatus: { ...t, readings } };
      return { ...f, machines: { ...f.machines, [id]: { ...before, machine } } };
    });
  }
}

onLivePush(applyFleetPush);
