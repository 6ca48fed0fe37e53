import { expect, it } from 'bun:test';
import { asSupport, listen, seedBusiness, TestLocker, withTestAuth } from '../../hubs/test-kit.ts';
import { describeApi } from '../../testing.ts';

describeApi(
  'test machines',
  (t) => {
    it('are paired at once: the credentials in the answer open the hub, and are never stored in plain', async () => {
      await seedBusiness(t.db);
      const res = await t.call(
        'testMachines',
        'create',
        { businessId: 'b1', name: 'QA 1', numberOfSlots: 6 },
        asSupport,
      );
      expect(res.status).toBe(200);
      const tm = res.body.testMachine;
      expect(tm.machineId).toBe(tm.id);
      expect(tm.credentials.accessTokenExpires).toBeGreaterThan(t.deps.now());
      const stored = await t.db.selectFrom('machine_credentials').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(tm.credentials.accessToken);
      const again = await t.call('testMachines', 'get', { id: tm.id }, asSupport);
      expect(again.body.testMachine.credentials).toEqual(tm.credentials);
      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, tm.credentials.accessToken);
        await locker.boot();
        await locker.call('BagLoaded', {
          eventId: 'b',
          seq: 1,
          created: t.deps.now(),
          barcode: 'RX-1',
          location: 'A3',
        });
        const bags = await t.call('testMachines', 'getTestMachineBags', { id: tm.id }, asSupport);
        expect(bags.body.bags.map((b) => [b.barcode, b.location])).toEqual([['RX-1', 'A3']]);
        const listed = await t.call('bags', 'listBags', { businessId: 'b1', machineId: tm.id }, asSupport);
        expect(listed.body.bags).toHaveLength(1);
        // The contents search: the start of the barcode or the slot, in any case.
        for (const [filter, found] of [
          ['rx-', 1],
          ['a3', 1],
          ['RX-2', 0],
          ['%', 0],
        ] as const) {
          const res = await t.call('bags', 'listBags', { businessId: 'b1', machineId: tm.id, filter }, asSupport);
          expect([filter, res.body.bags.length]).toEqual([filter, found]);
        }
        await locker.call('BagRemoved', { eventId: 'c', seq: 2, created: t.deps.now(), barcode: 'RX-1' });
        expect((await t.call('testMachines', 'getTestMachineBags', { id: tm.id }, asSupport)).body.bags).toEqual([]);
        locker.close();
      } finally {
        hub.stop();
      }
    });

    it('are listed apart from real machines, updated, and removed with what they reported', async () => {
      await seedBusiness(t.db);
      const tm = (
        await t.call('testMachines', 'create', { businessId: 'b1', name: 'QA 1', numberOfSlots: 6 }, asSupport)
      ).body.testMachine;
      await t.call('machines', 'createMachine', { businessId: 'b1', name: 'Real', numberOfSlots: 6 }, asSupport);
      const list = await t.call('testMachines', 'list', { businessId: 'b1' }, asSupport);
      expect(list.body.testMachines.map((m) => m.name)).toEqual(['QA 1']);
      const machines = await t.call('machines', 'listMachines', { businessId: 'b1' }, asSupport);
      expect(machines.body.machines.map((m) => m.name)).toEqual(['Real']);
      const updated = await t.call('testMachines', 'update', { id: tm.id, name: 'QA 2', numberOfSlots: 9 }, asSupport);
      expect(updated.body.testMachine).toMatchObject({ name: 'QA 2', numberOfSlots: 9 });
      expect((await t.call('testMachines', 'remove', { id: tm.id }, asSupport)).body).toEqual({ ok: true });
      expect((await t.call('testMachines', 'get', { id: tm.id }, asSupport)).status).toBe(404);
    });
  },
  withTestAuth,
);
