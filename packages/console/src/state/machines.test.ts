import { beforeEach, describe, expect, it } from 'bun:test';
import type { Machine, MachineEvent } from '@medlocker/core';
import { store } from './store.ts';

// The list filters live in sessionStorage, which bun's test runtime has not got.
const memory = new Map<string, string>();
globalThis.sessionStorage ??= {
  getItem: (k: string) => memory.get(k) ?? null,
  setItem: (k: string, v: string) => void memory.set(k, v),
  removeItem: (k: string) => void memory.delete(k),
} as Storage;
const { applyMachinePush, machineLiveAtom, machineTabFiltersAtom, resetMachineLiveAtom, setMachineTabFiltersAtom } =
  await import('./machines.ts');

const machine = { id: 'm_1', name: 'Front Locker' } as Machine;
const event = { id: 'e_1', machineId: 'm_1', code: 'EM_0016', level: 'critical' } as MachineEvent;

describe('machine pushes', () => {
  beforeEach(() => store.set(resetMachineLiveAtom, 'm_1'));

  it('records a locker coming online with the time it was last seen', () => {
    applyMachinePush({ action: 'statusUpdate', params: { machine, online: true, lastSeen: 123 } });
    expect(store.get(machineLiveAtom).m_1).toMatchObject({ online: true, lastSeen: 123, machine });
  });

  it('puts a new event on top and counts status reports so the status tab reloads', () => {
    applyMachinePush({ action: 'machineEvent', params: { event } });
    applyMachinePush({
      action: 'statusUpdate',
      params: { machineId: 'm_1', statusId: 's_1', observations: { door: 'closed' }, created: 1 },
    });
    expect(store.get(machineLiveAtom).m_1?.events).toEqual([event]);
    expect(store.get(machineLiveAtom).m_1?.statusReports).toBe(1);
  });

  it('keeps the new temperature average of the machine', () => {
    const temperatureStatus = { average: 26.1, lastExcursionAt: 5, updated: 6 };
    applyMachinePush({ action: 'temperature', params: { machineId: 'm_1', temperatureStatus } });
    expect(store.get(machineLiveAtom).m_1?.temperature).toEqual(temperatureStatus);
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
