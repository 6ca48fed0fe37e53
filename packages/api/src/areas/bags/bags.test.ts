import { expect, it } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../../testing/hub.ts';

describeApi(
  'bags',
  (t) => {
    const seedPatient = (businessId: string) =>
      t.db
        .insertInto('patients')
        .values({
          id: `p-${businessId}`,
          business_id: businessId,
          display_id: `ID-${businessId}`,
          full_name: 'Ada Lovelace',
          created: 1,
          updated: 1,
        })
        .execute();
    const seedOrder = (id: string, barcode: string, status: 'new' | 'loaded' | 'collected', businessId = 'b1') =>
      t.db
        .insertInto('orders')
        .values({
          id,
          reference: `REF-${id}`,
          business_id: businessId,
          business_name: `Pharmacy ${businessId}`,
          patient_id: `p-${businessId}`,
          patient_name: 'Ada Lovelace',
          barcode,
          status,
          collection_window: 7,
          created_via: 'portal',
          created: 1,
          updated: 1,
        })
        .execute();
    const seedBag = (id: string, barcode: string, machineId: string | null, orderId: string | null = null) =>
      t.db
        .insertInto('bags')
        .values({
          id,
          business_id: 'b1',
          barcode,
          reference: null,
          location: machineId ? `A-${id}` : null,
          machine_id: machineId,
          order_id: orderId,
          pin: null,
          created: 1,
          updated: 1,
        })
        .execute();
    const orderOf = async (bagId: string) =>
      (await t.db.selectFrom('bags').select('order_id').where('id', '=', bagId).executeTakeFirstOrThrow()).order_id;

    it("matches a machine's bags without an order to the current order with their barcode, loading it, once", async () => {
      await seedBusiness(t.db);
      await seedBusiness(t.db, 'b2');
      await seedPatient('b1');
      await seedPatient('b2');
      const machine = async (name: string) =>
        (await t.call('machines', 'createMachine', { businessId: 'b1', name, numberOfSlots: 8 }, asSupport)).body
          .machine.id;
      const m = await machine('Front');
      const other = await machine('Back');
      await seedOrder('o-0', 'RX-0', 'loaded');
      await seedOrder('o-1', 'RX-1', 'new');
      await seedOrder('o-2', 'RX-2', 'collected');
      await seedOrder('o-3', 'RX-3', 'new', 'b2');
      await seedOrder('o-4', 'RX-4', 'new');
      await seedOrder('o-5', 'RX-5', 'new');
      await seedBag('bag-1', 'RX-1', m); // its current order is matched and loaded here
      await seedBag('bag-2', 'RX-2', m); // its only order is collected
      await seedBag('bag-3', 'RX-3', m); // the order is another business's
      await seedBag('bag-4', 'RX-4', m, 'o-0'); // already has an order: left alone
      await seedBag('bag-5', 'RX-5', other); // another machine's bag

      const first = await t.call('bags', 'reprocessBags', { machineId: m }, asSupport);
      expect(first.body).toEqual({ processed: 3, matched: 1 });
      expect(await Promise.all(['bag-1', 'bag-2', 'bag-3', 'bag-4', 'bag-5'].map(orderOf))).toEqual([
        'o-1',
        null,
        null,
        'o-0',
        null,
      ]);
      const loaded = await t.call('orders', 'get', { id: 'o-1' }, asSupport);
      expect(loaded.body.order).toMatchObject({
        status: 'loaded',
        machineId: m,
        machineDetails: { location: 'A-bag-1' },
        expiresAt: t.deps.now() + 7 * 86_400_000,
      });
      const [entry] = await listAudit(t.db, 'bags.reprocess');
      expect(entry).toMatchObject({ entityId: m, details: { processed: 3, matched: 1 } });

      // Again: the matched bag is no longer without an order, nothing else matches.
      const again = await t.call('bags', 'reprocessBags', { machineId: m }, asSupport);
      expect(again.body).toEqual({ processed: 2, matched: 0 });
      expect((await t.call('bags', 'reprocessBags', { machineId: 'nope' }, asSupport)).status).toBe(404);
    });
  },
  withTestAuth,
);
