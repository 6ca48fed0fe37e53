import { expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The simulator against a real hub: the api's test kit, used here only by this test.
import { asSupport, eventually, listen, seedBusiness, withTestAuth } from '../../api/src/hubs/test-kit.ts';
import { describeApi } from '../../api/src/testing.ts';
import { SimLocker } from './locker.ts';

describeApi(
  'locker-sim against the hub',
  (t) => {
    it('boots, reports, survives a network drop and a restart with nothing lost, and hears out-of-order', async () => {
      await seedBusiness(t.db);
      const created = await t.call(
        'testMachines',
        'create',
        { businessId: 'b1', name: 'Sim', numberOfSlots: 24 },
        asSupport,
      );
      const tm = created.body.testMachine;
      const stateDir = mkdtempSync(join(tmpdir(), 'locker-sim-'));
      const hub = listen(t);
      const credentials = { machineId: tm.id, ...tm.credentials };
      let sim = new SimLocker({ api: hub.http, index: 1, stateDir, credentials, readingEverySeconds: 3600 });
      const rows = (table: 'machine_events' | 'bags' | 'locker_event_receipts') =>
        t.db.selectFrom(table).selectAll().where('machine_id', '=', tm.id).execute();
      try {
        await sim.start();
        await eventually(() => sim.status === 'online');
        sim.loadBag('RX-1', 'A1');
        await eventually(async () => (await rows('bags')).length === 1 && sim.view().queued === 0);

        sim.networkDrop(0);
        sim.alarm('EM_0016');
        sim.loadBag('RX-2', 'A2');
        expect(sim.view().queued).toBe(2);
        // The process dies while offline; a new one starts from the same state directory.
        sim.stop();
        sim = new SimLocker({ api: hub.http, index: 1, stateDir, readingEverySeconds: 3600 });
        expect(sim.view().queued).toBe(2);
        await sim.start();
        await eventually(() => sim.status === 'online' && sim.view().queued === 0, 5000);
        const receipts = await rows('locker_event_receipts');
        expect(receipts.map((r) => Number(r.sequence)).sort((a, b) => a - b)).toEqual([1, 2, 3]);
        expect((await rows('machine_events')).map((e) => e.code)).toContain('EM_0016');

        await t.call('machines', 'toggleOutOfOrderStatus', { id: tm.id }, asSupport);
        await eventually(() => sim.view().outOfOrder);
      } finally {
        sim.stop();
        hub.stop();
        rmSync(stateDir, { recursive: true, force: true });
      }
    });
  },
  withTestAuth,
);
