import {
  alarmResolutionOf,
  type FleetMachine as FleetSummaryMachine,
  inTemperatureExcursion,
  isActiveAlarm,
  isAlarm,
  isResolvedAlarmEvent,
  type Machine,
  type MachineEvent,
} from '@medlocker/core';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { type RpcOutput, rpc } from '../api/client.ts';
import { queryClient } from '../api/queries.ts';
import { type LivePush, onLivePush } from './live.ts';

/**
 * The fleet at a glance (the dashboard): pages of the api's fleet summary (500 machines a page, each
 * page with its machines' active alarms; core's `isActiveAlarm` says which), then kept current by the
 * hub's fleet pushes. The summary decides which machines are in the fleet (not archived, not test
 * machines, of businesses not archived); pushes about any other machine are left out, so a QA
 * simulator's test machines never show here. A machine added or unarchived meanwhile is pushed with its
 * business's name, which the server sends only for machines the summary would list.
 *
 * Server state, so it lives in TanStack Query's cache under `['machines', 'fleetSummary']`; the pushes
 * write into that cache (`setQueryData`) while the dashboard has it, and are otherwise ignored.
 */

/** What the dashboard shows of a machine; pushes replace `machine` with the whole Machine. */
type FleetMachineFields = Pick<Machine, 'id' | 'businessId' | 'name' | 'outOfOrderStatus' | 'temperatureStatus'>;

export type FleetMachine = {
  machine: FleetMachineFields;
  online: boolean;
  lastSeen: number | null;
  businessName: string;
};

/** A machine's temperature is out of the allowed band now (its 3-hour average): core's rule. */
export const hasExcursion = (m: FleetMachineFields) => inTemperatureExcursion(m.temperatureStatus);

/** The fleet as cached: every machine by id, and the active alarms newest first. */
export type Fleet = {
  machines: Record<string, FleetMachine>;
  alarms: MachineEvent[];
};

/** Where the dashboard's fleet is cached (api/queries.ts keys). */
export const fleetKey = ['machines', 'fleetSummary'] as const;

const noFleet: Fleet = { machines: {}, alarms: [] };

const fromSummary = ({ businessName, online, lastSeen, ...machine }: FleetSummaryMachine): FleetMachine => ({
  machine,
  online,
  lastSeen,
  businessName,
});

/**
 * Loads the whole fleet, page by page. Pushes that arrive meanwhile are written into the cache; at the
 * end they are newer than the pages, so they win (keeping the page's business name).
 */
export async function loadFleet(client: QueryClient = queryClient): Promise<Fleet> {
  // What the cache held when loading began: anything different at the end was pushed meanwhile.
  const start = client.getQueryData<Fleet>(fleetKey) ?? noFleet;
  const machines: Record<string, FleetMachine> = {};
  const alarms: MachineEvent[] = [];
  let nextToken: string | null = null;
  do {
    const page: RpcOutput<'machines', 'fleetSummary'> = await rpc('machines', 'fleetSummary', { nextToken });
    for (const m of page.machines) machines[m.id] = fromSummary(m);
    alarms.push(...page.alarms);
    nextToken = page.nextToken;
  } while (nextToken);
  alarms.sort((a, b) => b.created - a.created);
  const during = client.getQueryData<Fleet>(fleetKey) ?? noFleet;
  for (const [id, m] of Object.entries(during.machines)) {
    if (start.machines[id] !== m && (id in machines || id in start.machines))
      machines[id] = { ...m, businessName: m.businessName || machines[id]?.businessName || '' };
  }
  for (const id of Object.keys(start.machines)) if (!(id in during.machines)) delete machines[id];
  const before = new Set(start.alarms.map((a) => a.id));
  const loaded = new Set(alarms.map((a) => a.id));
  const pushed = during.alarms.filter((a) => !before.has(a.id) && !loaded.has(a.id) && a.machineId in machines);
  return { machines, alarms: [...pushed, ...alarms] };
}

/** The dashboard's fleet: loaded when the dashboard opens (and on reload), then kept by the pushes. */
export function useFleet() {
  return useQuery({ queryKey: fleetKey, queryFn: () => loadFleet() });
}

/** Whether the fleet is being (re)loaded: pushes about machines it does not know yet are kept for the merge. */
const isLoading = (client: QueryClient) => client.getQueryState(fleetKey)?.fetchStatus === 'fetching';

/**
 * The alarms still active at `now`, newest first as held: core's `isActiveAlarm` (the last 24 hours,
 * less excursions whose machine is back in the band) with each machine as last pushed. The dashboard's
 * count and its list both read this one answer, as the api's fleet summary applies the same rule.
 */
export const activeAlarms = (fleet: Pick<Fleet, 'alarms' | 'machines'>, now: number): MachineEvent[] =>
  fleet.alarms.filter((a) => isActiveAlarm(a, now, fleet.machines[a.machineId]?.machine));

/** Reads the hub's fleet pushes into the cached fleet (only while one is cached or loading). */
export function applyFleetPush({ action, params }: LivePush, client: QueryClient = queryClient): void {
  const p = params as Record<string, unknown> & { machine?: Machine; machineId?: string };
  const state = client.getQueryState<Fleet>(fleetKey);
  if (!state || (state.data === undefined && state.fetchStatus !== 'fetching')) return;
  const loading = isLoading(client);
  const change = (apply: (fleet: Fleet) => Fleet) => client.setQueryData<Fleet>(fleetKey, (f) => apply(f ?? noFleet));
  if (action === 'statusUpdate' && p.machine) {
    const machine = p.machine;
    change((f) => {
      const before = f.machines[machine.id];
      // A machine just added comes with its business's name (the server gives it only for machines the
      // summary would list). Any other machine not in the fleet (a test machine, or one of an archived
      // business) is not the dashboard's; while the fleet loads, kept for the merge, which drops it
      // unless the pages have it.
      if (!before && !loading && typeof p.businessName !== 'string') return f;
      const next: FleetMachine = {
        machine,
        online: typeof p.online === 'boolean' ? p.online : (before?.online ?? false),
        lastSeen: 'lastSeen' in p ? (p.lastSeen as number | null) : (before?.lastSeen ?? null),
        businessName: before?.businessName || (typeof p.businessName === 'string' ? p.businessName : ''),
      };
      return { ...f, machines: { ...f.machines, [machine.id]: next } };
    });
  } else if (action === 'archived' && p.entity === 'machine' && typeof p.id === 'string') {
    const id = p.id;
    change((f) => {
      const { [id]: _gone, ...machines } = f.machines;
      return { ...f, machines, alarms: f.alarms.filter((a) => a.machineId !== id) };
    });
  } else if (action === 'archived' && p.entity === undefined && typeof p.businessId === 'string') {
    // A business archived: its machines leave the fleet, with their alarms.
    const businessId = p.businessId;
    change((f) => {
      const machines = Object.fromEntries(
        Object.entries(f.machines).filter(([, m]) => m.machine.businessId !== businessId),
      );
      return { ...f, machines, alarms: f.alarms.filter((a) => a.machineId in machines) };
    });
  } else if (action === 'unarchived' && p.entity === undefined && typeof p.businessId === 'string') {
    // A business back: its machines (and their alarms) come from the summary.
    void client.refetchQueries({ queryKey: fleetKey, exact: true });
  } else if (action === 'unarchived' && p.entity === 'machine' && p.machine && typeof p.businessName === 'string') {
    // Back in the fleet (the name comes only when it counts there: not a test machine, business current).
    const machine = p.machine;
    const businessName = p.businessName;
    change((f) => ({
      ...f,
      machines: { ...f.machines, [machine.id]: { machine, online: false, lastSeen: null, businessName } },
    }));
  } else if (action === 'machineEvent') {
    const event = p.event as MachineEvent | undefined;
    const resolved = event && alarmResolutionOf(event);
    if (resolved) change((f) => ({ ...f, alarms: f.alarms.filter((a) => !isResolvedAlarmEvent(a, [resolved])) }));
    else if (event && isAlarm(event))
      change((f) =>
        f.machines[event.machineId] || loading
          ? { ...f, alarms: [event, ...f.alarms.filter((a) => a.id !== event.id)] }
          : f,
      );
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

onLivePush((push) => applyFleetPush(push));
