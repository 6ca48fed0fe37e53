import { beforeEach, describe, expect, it } from 'bun:test';
import type { Machine, MachineEvent } from '@medlocker/core';
import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Page } from '../api/queries.ts';
import type { LivePush } from './live.ts';
import { store } from './store.ts';

// The list filters live in sessionStorage, which bun's test runtime has not got.
const memory = new Map<string, string>();
globalThis.sessionStorage ??= {
  getItem: (k: string) => memory.get(k) ?? null,
  setItem: (k: string, v: string) => void memory.set(k, v),
  removeItem: (k: string) => void memory.delete(k),
} as Storage;
const { applyMachinePush: apply, machineTabFiltersAtom, setMachineTabFiltersAtom } = await import('./machines.ts');

const machine = { id: 'm_1', name: 'Front Locker', temperatureStatus: null } as Machine;
const event = { id: 'e_1', machineId: 'm_1', code: 'EM_0016', level: 'critical' } as MachineEvent;

const client = new QueryClient();
const applyMachinePush = (push: LivePush) => apply(push, client);
const details = ['machines', 'getMachine', 'm_1'];
const list = ['machines', 'listMachines', 'b_1', false, '', 'pages'];
const events = (level: string | null) => ['machines', 'listEvents', 'm_1', level, null, '', 'pages'];
type Pages<T> = InfiniteData<Page<T>>;
const rows = <T>(key: unknown[]) => client.getQueryData<Pages<T>>(key)?.pages.flatMap((p) => p.items);

describe('machine pushes', () => {
  beforeEach(() => {
    client.clear();
    const pages = <T>(items: T[]): Pages<T> => ({ pages: [{ items, nextToken: null }], pageParams: [null] });
    client.setQueryData(details, { machine, online: false, lastSeen: null, paired: true });
    client.setQueryData(list, pages([{ ...machine, online: false, lastSeen: null }]));
    client.setQueryData(events(null), pages([]));
    client.setQueryData(events('info'), pages([]));
  });

  it('records a locker coming online with the time it was last seen, on its page and in the machine list', () => {
    const renamed = { ...machine, name: 'Back Locker' };
    applyMachinePush({ action: 'statusUpdate', params: { machine: renamed, online: true, lastSeen: 123 } });
    expect(client.getQueryData(details)).toMatchObject({ online: true, lastSeen: 123, machine: renamed });
    expect(rows(list)).toEqual([{ ...renamed, online: true, lastSeen: 123 }]);
  });

  it("updates the machine lists when an answer under the same key is not pages (the order form's picker)", () => {
    client.clear();
    const picker = ['machines', 'listMachines', 'b_1', false, 'all'];
    client.setQueryData(picker, [{ id: 'm_1', name: 'Front Locker' }]);
    client.setQueryData(list, {
      pages: [{ items: [{ ...machine, online: false }], nextToken: null }],
      pageParams: [null],
    });
    applyMachinePush({ action: 'statusUpdate', params: { machine, online: true, lastSeen: 7 } });
    expect(rows(list)).toEqual([{ ...machine, online: true, lastSeen: 7 }]);
    expect(client.getQueryData(picker)).toEqual([{ id: 'm_1', name: 'Front Locker' }]);
  });

  it('puts a new event on top of the event lists it passes the filter of', () => {
    applyMachinePush({ action: 'machineEvent', params: { event } });
    expect(rows(events(null))).toEqual([event]);
    expect(rows(events('info'))).toEqual([]);
  });

  it('keeps the new temperature average of the machine', () => {
    const temperatureStatus = { average: 26.1, lastExcursionAt: 5, updated: 6 };
    applyMachinePush({ action: 'temperature', params: { machineId: 'm_1', temperatureStatus } });
    expect(client.getQueryData<{ machine: Machine }>(details)?.machine.temperatureStatus).toEqual({
      ...temperatureStatus,
      readings: [],
    });
  });
});

describe('machine tab filters', () => {
  it('keeps each machine page its own filters, in the session storage', () => {
    store.set(setMachineTabFiltersAtom, 'm_1', { eventLevel: 'warn' });
    store.set(setMachineTabFiltersAtom, 'm_1', { eventCode: 'MP_0003' });
    store.set(setMachineTabFiltersAtom, 'm_2', { contentsSearch: 'RX-' });
    expect(store.get(machineTabFiltersAtom)).toEqual({
      m_1: { eventLevel: 'warn', eventCode: 'MP_0003', contentsSearch: '' },
      m_2: { eventLevel: null, eventCode: null, contentsSearch: 'RX-' },
    });
    expect(JSON.parse(sessionStorage.getItem('medlocker.machineTabs.filters') ?? '{}').m_1.eventCode).toBe('MP_0003');
  });
});
