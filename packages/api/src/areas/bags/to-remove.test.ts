import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import { asSupport, lockerEvents, makeReal, withBootedLocker, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';

const DAY = 86_400_000;

describeApi(
  'bags to remove',
  (t) => {
    const event = lockerEvents(t);
    let patients = 0;
    const newOrder = async (barcode: string) => {
      const patient = await t.call(
        'patients',
        'create',
        { businessId: 'b1', patient: testPatient(++patients) },
        asSupport,
      );
      const res = await t.call(
        'orders',
        'create',
        { businessId: 'b1', patientId: patient.body.patient.id, barcode },
        asSupport,
      );
      expect(res.status).toBe(200);
      return res.body.order as { id: string; reference: string };
    };

    it("lists a cancelled order's bag and an expired one, with their references, and counts every bag inside", async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        const kept = await newOrder('RX-A');
        const cancelled = await newOrder('RX-B');
        const expiring = await newOrder('RX-C');
        await locker.call('BagLoaded', event({ barcode: 'RX-A', location: 'A3' }));
        await locker.call('BagLoaded', event({ barcode: 'RX-B', location: 'A4' }));
        await locker.call('BagLoaded', event({ barcode: 'RX-C', location: 'A5' }));
        // A bag loaded before its order exists: inside, but nobody has to take it out.
        await locker.call('BagLoaded', event({ barcode: 'RX-W', location: 'A6' }));
        expect(
          (await t.call('orders', 'cancel', { id: cancelled.id, reason: 'Wrong patient' }, asSupport)).status,
        ).toBe(200);
        const toRemove = async (input: Record<string, unknown>) =>
          (await t.call('bags', 'listBagsToRemove', { businessId: 'b1', ...input }, asSupport)).body;

        const one = await toRemove({ machineId: machine.id });
        expect(one).toEqual({
          total: 1,
          bags: [
            {
              bagId: expect.any(String),
              barcode: 'RX-B',
              reference: cancelled.reference,
              location: 'A4',
              machineId: machine.id,
              machineName: 'Locker 1',
              orderId: cancelled.id,
              reason: 'cancelled',
              since: t.deps.now(),
            },
          ],
        });
        // The contents show each matched bag's reference, the cancelled one's too.
        const contents = await t.call('bags', 'listBags', { businessId: 'b1', machineId: machine.id }, asSupport);
        expect(contents.body.bags.map((b) => [b.barcode, b.reference])).toEqual([
          ['RX-W', null],
          ['RX-C', expiring.reference],
          ['RX-B', cancelled.reference],
          ['RX-A', kept.reference],
        ]);

        // Two days on, the loaded orders have expired; one is taken out of the locker.
        t.advance(2 * DAY + 1);
        await locker.call('BagRemoved', event({ barcode: 'RX-A' }));
        const two = await toRemove({ machineId: machine.id });
        expect(two.total).toBe(2);
        expect(two.bags.map((b) => [b.barcode, b.reason])).toEqual([
          ['RX-B', 'cancelled'],
          ['RX-C', 'expired'],
        ]);
        // A test machine's bags are not the business's to remove, nor in its usage; a real machine's are.
        expect((await toRemove({})).total).toBe(0);
        await makeReal(t, machine.id);
        expect((await toRemove({})).bags.map((b) => b.barcode)).toEqual(['RX-B', 'RX-C']);
        const usage = (await t.call('reports', 'getUsageStats', { businessId: 'b1' }, asSupport)).body;
        expect(usage.bagsToRemove).toEqual({ total: 2, cancelled: 1, expired: 1 });
        // Three bags fill three slots, whatever became of their orders (loaded orders alone are one).
        expect(usage.occupancy.slotsUsed).toBe(3);
        expect(usage.liveOrders.inMachines).toBe(1);
        const estate = (await t.call('reports', 'getUsageStats', {}, asSupport)).body;
        expect(estate.bagsToRemove.total).toBe(2);
      });
    });
  },
  withTestAuth,
);
