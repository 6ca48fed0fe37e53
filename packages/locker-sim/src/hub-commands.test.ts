import { expect, it } from 'bun:test';
import { describeApi } from '../../api/src/testing/api.ts';
// The simulator against a real hub: the api's test kit, used here only by this test.
import { asSupport, eventually, seedBusiness, withTestAuth } from '../../api/src/testing/hub.ts';
import { withSimLocker } from './sim-harness.ts';

describeApi(
  'locker-sim answers the commands staff send',
  (t) => {
    it('sends the status asked for, accepts a HeartbeatInterval and refuses the rest, and boots again after a reset', async () => {
      await seedBusiness(t.db);
      await withSimLocker(t, async ({ machineId, sim }) => {
        const statuses = async () =>
          (await t.db.selectFrom('machine_status').select('id').where('machine_id', '=', machineId).execute()).length;
        const send = (method: 'triggerStatus' | 'changeConfiguration' | 'resetLocker', input: Record<string, string>) =>
          t.call('machines', method, { id: machineId, ...input } as never, asSupport);
        await Bun.sleep(300);
        const atBoot = await statuses();

        expect((await send('triggerStatus', { requested: 'StatusNotification' })).body.status).toBe('Accepted');
        await eventually(async () => (await statuses()) > atBoot);

        const configure = async (key: string, value: string) =>
          (await send('changeConfiguration', { key, value })).body.status;
        expect(await configure('HeartbeatInterval', '30')).toBe('Accepted');
        expect(sim.view().lastEvent).toBe('configuration HeartbeatInterval=30: Accepted');
        expect(await configure('HeartbeatInterval', 'soon')).toBe('Rejected');
        expect(await configure('HeartbeatInterval', '5')).toBe('Rejected');
        expect(await configure('Colour', 'blue')).toBe('NotSupported');

        let before = await statuses();
        expect((await send('resetLocker', { type: 'Soft' })).body.status).toBe('Accepted');
        expect(sim.view().lastEvent).toBe('reset (Soft): restarting');
        await eventually(() => sim.view().lastEvent === 'booted after a Soft reset', 5000);
        // Booted again: it reports its status again, as after every boot.
        await eventually(async () => (await statuses()) > before, 5000);
        before = await statuses();
        expect((await send('resetLocker', { type: 'Hard' })).body.status).toBe('Accepted');
        expect(sim.view().lastEvent).toBe('reset (Hard): restarting');
        await eventually(() => sim.view().lastEvent === 'booted after a Hard reset', 5000);
        await eventually(async () => (await statuses()) > before, 5000);
        const booted = t.db.selectFrom('machine_events').select('message').where('code', '=', 'EM_0019');
        await eventually(async () => (await booted.execute()).length === 2, 5000);
        expect((await booted.orderBy('created').execute()).map((e) => e.message)).toEqual([
          'Booted after a Soft reset',
          'Booted after a Hard reset',
        ]);
      });
    }, 30_000);
  },
  withTestAuth,
);
