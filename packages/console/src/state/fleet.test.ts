import { beforeEach, describe, expect, it } from 'bun:test';
import { ACTIVE_ALARM_MS, type Machine, type MachineEvent } from '@medlocker/core';
import { QueryClient } from '@tanstack/react-query';
import { activeAlarms, applyFleetPush as apply, type Fleet, fleetKey } from './fleet.ts';
import type { LivePush } from './live.ts';

const client = new QueryClient();
const applyFleetPush = (push: LivePush) => apply(push, client);
const fleetOf = () => client.getQueryData<Fleet>(fleetKey) as Fleet;

const T = Date.UTC(2026, 10, 22, 9);
const machine = (id: string, businessId = 'b_1') =>
  ({ id, businessId, name: `Locker ${id}`, outOfOrderStatus: null, temperatureStatus: null }) as Machine;
const alarm = (id: string, machineId: string, created = T) =>
  ({ id, machineId, code: 'EM_0003', level: 'critical', created }) as MachineEvent;

describe('the dashboard fleet and its pushes', () => {
  beforeEach(() =>
    client.setQueryData<Fleet>(fleetKey, {
      machines: {
        m_1: { machine: machine('m_1'), online: false, lastSeen: null, businessName: 'Harborne Pharmacy' },
        m_2: { machine: machine('m_2', 'b_2'), online: true, lastSeen: T, businessName: 'Chorlton Chemist' },
      },
      alarms: [alarm('a_2', 'm_2')],
    }),
  );

  it('updates a fleet machine and adds its alarms', () => {
    applyFleetPush({ action: 'statusUpdate', params: { machine: machine('m_1'), online: true, lastSeen: T } });
    applyFleetPush({ action: 'machineEvent', params: { event: alarm('a_1', 'm_1') } });
    const fleet = fleetOf();
    expect(fleet.machines.m_1).toMatchObject({ online: true, lastSeen: T, businessName: 'Harborne Pharmacy' });
    expect(fleet.alarms.map((a) => a.id)).toEqual(['a_1', 'a_2']);
  });

  it('leaves out machines the summary did not list (test machines, archived businesses) and their alarms', () => {
    applyFleetPush({ action: 'statusUpdate', params: { machine: machine('t_1'), online: true, lastSeen: T } });
    applyFleetPush({ action: 'machineEvent', params: { event: alarm('a_t', 't_1') } });
    const fleet = fleetOf();
    expect(Object.keys(fleet.machines).sort()).toEqual(['m_1', 'm_2']);
    expect(fleet.alarms.map((a) => a.id)).toEqual(['a_2']);
  });

  it('adds a machine pushed as newly in the fleet (added or unarchived), with its business name', () => {
    applyFleetPush({
      action: 'statusUpdate',
      params: { machine: machine('m_3'), online: false, lastSeen: null, businessName: 'Harborne Pharmacy' },
    });
    applyFleetPush({
      action: 'unarchived',
      params: { entity: 'machine', id: 'm_4', machine: machine('m_4', 'b_2'), businessName: 'Chorlton Chemist' },
    });
    // Unarchived without a name: a test machine, or one of an archived business.
    applyFleetPush({ action: 'unarchived', params: { entity: 'machine', id: 't_1', machine: machine('t_1') } });
    const fleet = fleetOf();
    expect(Object.keys(fleet.machines).sort()).toEqual(['m_1', 'm_2', 'm_3', 'm_4']);
    expect(fleet.machines.m_3).toMatchObject({ online: false, lastSeen: null, businessName: 'Harborne Pharmacy' });
    expect(fleet.machines.m_4?.businessName).toBe('Chorlton Chemist');
  });

  it("drops an archived business's machines and their alarms", () => {
    applyFleetPush({
      action: 'archived',
      params: { businessId: 'b_2', archived: { at: T, userId: null, userDisplayName: null } },
    });
    const fleet = fleetOf();
    expect(Object.keys(fleet.machines)).toEqual(['m_1']);
    expect(fleet.alarms).toEqual([]);
  });

  it('ignores pushes while no dashboard has the fleet', () => {
    const none = new QueryClient();
    apply({ action: 'statusUpdate', params: { machine: machine('m_1'), online: true, lastSeen: T } }, none);
    expect(none.getQueryData(fleetKey)).toBeUndefined();
  });

  it('lets alarms go once they are 24 hours old', () => {
    const alarms = [alarm('new', 'm_1', T), alarm('old', 'm_1', T - ACTIVE_ALARM_MS + 60_000)];
    const { machines } = fleetOf();
    expect(activeAlarms({ machines, alarms }, T).map((a) => a.id)).toEqual(['new', 'old']);
    expect(activeAlarms({ machines, alarms }, T + 60_001).map((a) => a.id)).toEqual(['new']);
  });

  it('clears a temperature excursion alarm from the active ones when its machine is pushed back in the band', () => {
    const excursion = { ...alarm('hot', 'm_1', T), code: 'MP_0001', level: 'error' } as MachineEvent;
    const temperature = (average: number) =>
      applyFleetPush({
        action: 'temperature',
        params: { machineId: 'm_1', temperatureStatus: { average, lastExcursionAt: T, updated: T } },
      });
    temperature(27.5);
    applyFleetPush({ action: 'machineEvent', params: { event: excursion } });
    expect(activeAlarms(fleetOf(), T).map((a) => a.id)).toEqual(['hot', 'a_2']);
    temperature(21.0);
    expect(activeAlarms(fleetOf(), T).map((a) => a.id)).toEqual(['a_2']);
  });

  it('drops the alarms a critical alarm resolution ended, and keeps one raised after it', () => {
    applyFleetPush({ action: 'machineEvent', params: { event: alarm('a_1', 'm_1', T - 1) } });
    const resolved = { ...alarm('r_1', 'm_2', T), code: 'MP_0015', level: 'info', data: { code: 'EM_0003' } };
    applyFleetPush({ action: 'machineEvent', params: { event: resolved as MachineEvent } });
    expect(fleetOf().alarms.map((a) => a.id)).toEqual(['a_1']);
    applyFleetPush({ action: 'machineEvent', params: { event: alarm('a_3', 'm_2', T + 1) } });
    expect(fleetOf().alarms.map((a) => a.id)).toEqual(['a_3', 'a_1']);
  });
});
