import { expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeApi } from '../../api/src/testing/api.ts';
// The simulator against a real hub: the api's test kit, used here only by this test.
import { asSupport, eventually, listen, seedBusiness, withTestAuth } from '../../api/src/testing/hub.ts';
import { testPatient } from '../../api/src/testing/patients.ts';
import { SimLocker } from './locker.ts';
import { withSimLocker } from './sim-harness.ts';

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

    it('has a keypad: a loaded bag is collected with its order’s PIN, through the control API', async () => {
      await seedBusiness(t.db);
      const patient = await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(5) }, asSupport);
      const order = (
        await t.call(
          'orders',
          'create',
          { businessId: 'b1', patientId: patient.body.patient.id, barcode: 'RX-KEY' },
          asSupport,
        )
      ).body.order;
      const status = async () => (await t.call('orders', 'get', { id: order.id }, asSupport)).body.order.status;
      await withSimLocker(
        t,
        async ({ sim, step }) => {
          await step({ do: 'loadBag', barcode: 'RX-KEY', location: 'C4' });
          await eventually(async () => (await status()) === 'loaded');
          const { pin } = (await t.call('orders', 'setRevealPinReason', { id: order.id, reason: 'QA' }, asSupport))
            .body;
          expect((await step({ do: 'enterPin', pin: pin === '11111111' ? '22222222' : '11111111' })).answers).toEqual([
            { status: 'Invalid' },
          ]);
          expect((await step({ do: 'enterPin', pin: '12' })).error).toBe('"pin" must be 4 to 12 digits');
          expect((await step({ do: 'enterPin', pin })).answers[0]).toMatchObject({
            status: 'Accepted',
            location: 'C4',
          });
          expect((await step({ do: 'collectBag' })).answers).toEqual([{ collected: true }]);
          await eventually(async () => (await status()) === 'collected');
          expect(sim.contents().size).toBe(0);
          expect((await step({ do: 'collectBag' })).answers).toEqual([{ collected: false }]);
        },
        { name: 'Keypad', numberOfSlots: 8 },
      );
    }, 30_000);
  },
  withTestAuth,
);
