import { afterAll, afterEach, expect, it } from 'bun:test';
import {
  type CollectionFilter,
  type CollectionRecord,
  collectionFilters,
  collectionRecordsMaxAll,
} from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { startFakeJudopay } from '../../payments/fake-judopay.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { dataUrl, pngBytes } from '../../testing/businesses.ts';
import { chargedOrder, chargingBusiness, judoAccount, patientActor, webhookAuth } from '../../testing/checkout.ts';
import { asSupport, testAuth } from '../../testing/hub.ts';
import { declareExemption } from '../checkout/exemption.ts';
import { completeJudoOrderPayment, createJudoPaymentSession } from '../checkout/service.ts';

/*
 * Collection records (issue 21): a known set of orders taken through their lifecycle with the real
 * services, collected on both sides of London's midnights and of the day the clocks went back
 * (Sunday 25 October 2026: 01:00 UTC, BST → GMT, a 25-hour day).
 */

const at = (t: TestApi, moment: string) => t.advance(Date.parse(moment) - t.deps.now());
const signature = dataUrl('image/png', pngBytes(2048));

// The card provider, a local HTTP server: the Paid order is paid through the checkout service.
const judo = startFakeJudopay([judoAccount]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

describeApi(
  'reports: collection records',
  (t) => {
    type Estate = { businessId: string; patientId: string };

    /** Collects an order as staff do (orders/markCollected) at a moment. */
    async function collect(id: string, moment: string) {
      at(t, moment);
      const res = await t.call('orders', 'markCollected', { id }, asSupport);
      expect(res.status).toBe(200);
    }

    /** The set: one order per filter case, each collected at its moment; plus orders that must never show. */
    async function lifecycle() {
      at(t, '2026-10-20T10:00:00Z');
      const estate: Estate = await chargingBusiness(t);
      const other = await chargingBusiness(t, { judo: false });
      // Paid: the patient pays £11.90 by card through the checkout service and the card provider.
      const paid = await chargedOrder(t, estate, { prescriptionCharge: 990, retailCharge: 200 });
      const session = await createJudoPaymentSession(t.deps, patientActor(estate), { orderId: paid });
      const receipt = judo.pay(session.yourPaymentReference, 'Success');
      const done = await completeJudoOrderPayment(t.deps, patientActor(estate), {
        orderId: paid,
        receiptId: receipt.receiptId,
      });
      expect(done.outcome).toBe('succeeded');
      // Exemption Declared: the patient declares F through the checkout service.
      const exempt = await chargedOrder(t, estate, { prescriptionCharge: 990 });
      await declareExemption(t.deps, patientActor(estate), {
        orderId: exempt,
        exemptionCode: 'F',
        nameOfDeclarant: 'Sam Patient',
        onBehalfOfPatient: false,
        signature,
      });
      // No Charge and PIN revealed: nothing to pay, and staff revealed its PIN.
      const free = await chargedOrder(t, estate, { prescriptionCharge: 0, retailCharge: 0 });
      const revealed = await t.call(
        'orders',
        'setRevealPinReason',
        { id: free, reason: 'Patient lost the SMS' },
        asSupport,
      );
      expect(revealed.status).toBe(200);
      // Charged and never paid, collected all the same: only in All.
      const unpaid = await chargedOrder(t, estate);
      // Both: F waives the £9.90 prescription charge and the £2.00 retail charge is then paid by card.
      const mixed = await chargedOrder(t, estate, { prescriptionCharge: 990, retailCharge: 200 });
      await declareExemption(t.deps, patientActor(estate), {
        orderId: mixed,
        exemptionCode: 'F',
        nameOfDeclarant: 'Sam Patient',
        onBehalfOfPatient: false,
        signature,
      });
      const retail = await createJudoPaymentSession(t.deps, patientActor(estate), { orderId: mixed });
      const retailPaid = judo.pay(retail.yourPaymentReference, 'Success');
      await completeJudoOrderPayment(t.deps, patientActor(estate), { orderId: mixed, receiptId: retailPaid.receiptId });
      // Never collected; and another business's collection on the same day.
      await chargedOrder(t, estate);
      const foreign = await chargedOrder(t, other);

      await collect(mixed, '2026-10-23T12:00:00.000Z');
      await collect(paid, '2026-10-24T22:59:59.999Z'); // 24 Oct 23:59:59.999 BST
      await collect(exempt, '2026-10-24T23:00:00.000Z'); // 25 Oct 00:00 BST: London midnight
      await collect(free, '2026-10-25T12:00:00.000Z'); // 25 Oct 12:00 GMT
      await collect(unpaid, '2026-10-25T23:59:59.999Z'); // 25 Oct 23:59:59.999 GMT
      await collect(foreign, '2026-10-25T12:00:00.000Z');
      return { estate, other, paid, exempt, free, unpaid, foreign, mixed };
    }

    const list = async (input: Record<string, unknown>, as?: { cookie: string }) =>
      t.call('reports', 'listCollectionStats', input, as ?? asSupport);

    const ids = (records: CollectionRecord[]) => records.map((r) => r.id);

    it('gives each filter exactly its orders, newest collection first, as SPEC §3 records', async () => {
      const o = await lifecycle();
      const range = { businessId: o.estate.businessId, startDate: '2026-10-23', endDate: '2026-10-25' };
      const expected: Record<CollectionFilter, string[]> = {
        All: [o.unpaid, o.free, o.exempt, o.paid, o.mixed],
        Paid: [o.paid, o.mixed],
        'PIN revealed': [o.free],
        'Exemption Declared': [o.exempt, o.mixed],
        'No Charge': [o.free],
      };
      for (const filterType of collectionFilters) {
        const res = await list({ ...range, filterType });
        expect([filterType, res.status]).toEqual([filterType, 200]);
        expect([filterType, ids(res.body.records)]).toEqual([filterType, expected[filterType]]);
      }
      const all = await list(range);
      const paid = all.body.records.find((r: CollectionRecord) => r.id === o.paid);
      const order = (await t.call('orders', 'get', { id: o.paid }, asSupport)).body.order;
      expect(paid).toEqual({
        id: o.paid,
        reference: order.reference,
        patientId: o.estate.patientId,
        patientName: order.patientName,
        collected: Date.parse('2026-10-24T22:59:59.999Z'),
        amountPaid: 1190,
        autoExempt: false,
        exemptionCode: null,
        pinRevealed: false,
        prescriptionCharge: 990,
        retailCharge: 200,
      });
      const exempt = all.body.records.find((r: CollectionRecord) => r.id === o.exempt);
      expect(exempt).toMatchObject({ exemptionCode: 'F', amountPaid: 0, pinRevealed: false });
      const mixed = all.body.records.find((r: CollectionRecord) => r.id === o.mixed);
      expect(mixed).toMatchObject({ exemptionCode: 'F', amountPaid: 200, prescriptionCharge: 990, retailCharge: 200 });
      expect(all.body.records.find((r: CollectionRecord) => r.id === o.free)).toMatchObject({ pinRevealed: true });
    });

    it('reads days on the London calendar, the 25-hour day of the clock change included', async () => {
      const o = await lifecycle();
      const day = async (startDate: string, endDate = startDate) =>
        ids((await list({ businessId: o.estate.businessId, startDate, endDate })).body.records);
      expect(await day('2026-10-24')).toEqual([o.paid]);
      expect(await day('2026-10-25')).toEqual([o.unpaid, o.free, o.exempt]);
      expect(await day('2026-10-26')).toEqual([]);
      expect(await day('2026-10-23', '2026-10-26')).toEqual([o.unpaid, o.free, o.exempt, o.paid, o.mixed]);
    });

    it('pages with a stable cursor through ties of the same collection time, and getAll gives every record', async () => {
      at(t, '2026-11-02T09:00:00Z');
      const estate = await chargingBusiness(t, { judo: false });
      const made: string[] = [];
      for (let i = 0; i < 61; i++) made.push(await chargedOrder(t, estate, { prescriptionCharge: 0, retailCharge: 0 }));
      // Collected in threes at the same instant: ties are ordered by id.
      for (const [i, id] of made.entries()) {
        await t.db
          .updateTable('orders')
          .set({ status: 'collected', collected: Date.parse('2026-11-02T00:00:00Z') + Math.floor(i / 3) * 60_000 })
          .where('id', '=', id)
          .execute();
      }
      const input = { businessId: estate.businessId, startDate: '2026-11-02', endDate: '2026-11-02' };
      const seen: CollectionRecord[] = [];
      let nextToken: string | null = null;
      let pages = 0;
      do {
        const res = await list({ ...input, nextToken });
        expect(res.status).toBe(200);
        seen.push(...res.body.records);
        nextToken = res.body.nextToken;
        pages++;
      } while (nextToken);
      expect(pages).toBe(2);
      const sorted = [...seen].sort((a, b) => (b.collected ?? 0) - (a.collected ?? 0) || (a.id < b.id ? 1 : -1));
      expect(ids(seen)).toEqual(ids(sorted));
      expect(new Set(ids(seen))).toEqual(new Set(made));
      const all = await list({ ...input, getAll: true });
      expect([all.body.records.length, all.body.nextToken]).toEqual([61, null]);
      expect(ids(all.body.records)).toEqual(ids(seen));
    });

    it('refuses a getAll of more than 10,000 records (never cuts it short); 10,000 are answered', async () => {
      const estate = await chargingBusiness(t, { judo: false });
      const patient = await t.db
        .selectFrom('patients')
        .select('full_name')
        .where('id', '=', estate.patientId)
        .executeTakeFirstOrThrow();
      const rows = Array.from({ length: collectionRecordsMaxAll + 1 }, (_, i) => ({
        id: Bun.randomUUIDv7(),
        reference: `C${i}`,
        business_id: estate.businessId,
        business_name: 'Bulk',
        patient_id: estate.patientId,
        patient_name: patient.full_name,
        barcode: `BULK-${i}`,
        collection_window: 48,
        created_via: 'portal' as const,
        status: 'collected' as const,
        collected: Date.parse('2026-11-01T12:00:00Z') + i,
        created: 1,
        updated: 1,
      }));
      for (let i = 0; i < rows.length; i += 1000)
        await t.db
          .insertInto('orders')
          .values(rows.slice(i, i + 1000))
          .execute();
      const input = { businessId: estate.businessId, startDate: '2026-11-01', endDate: '2026-11-01', getAll: true };
      const over = await list(input);
      expect([over.status, over.body.error?.details?.[0]?.id]).toEqual([400, 'TOO_MANY_RECORDS']);
      await t.db
        .deleteFrom('orders')
        .where('id', '=', rows[0]?.id ?? '')
        .execute();
      const full = await list(input);
      expect([full.status, full.body.error, full.body.records?.length, full.body.nextToken]).toEqual([
        200,
        undefined,
        collectionRecordsMaxAll,
        null,
      ]);
    }, 60_000);

    it("keeps pharmacy users to their own businesses: another's is 404 and nothing of it shows", async () => {
      const o = await lifecycle();
      const pharmacy = await t.signIn({
        roles: [{ name: 'Business', resourceType: 'business', resourceId: o.estate.businessId }],
      });
      const range = { startDate: '2026-10-01', endDate: '2026-10-31' };
      const own = await list({ ...range, businessId: o.estate.businessId }, pharmacy);
      expect([own.status, own.body.records?.length, own.body.error]).toEqual([200, 5, undefined]);
      // Who saw which orders (a patient's name and what they collected) is audited, as order reads are.
      // One entry per page shown, naming its orders.
      const reads = (await listAudit(t.db, 'report.collectionRecords.list')).filter(
        (a) => a.actorUserId === pharmacy.userId,
      );
      expect(reads).toHaveLength(1);
      expect(((reads[0]?.details ?? { ids: [] }) as { ids: string[] }).ids.sort()).toEqual(
        own.body.records.map((r: CollectionRecord) => r.id).sort(),
      );
      expect(reads[0]).toMatchObject({ entityType: 'order', details: { ...range, filter: 'All' } });
      for (const input of [
        { ...range, businessId: o.other.businessId },
        { ...range, businessId: o.other.businessId, getAll: true },
      ]) {
        const res = await list(input, pharmacy);
        // Another business's rows are 404, as if they did not exist (access/enforce.ts).
        expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
        expect(JSON.stringify(res.body)).not.toContain(o.foreign);
      }
    });

    it('refuses bad input with 400 and an unknown business with 404', async () => {
      const estate = await chargingBusiness(t, { judo: false });
      const base = { businessId: estate.businessId, startDate: '2026-10-01', endDate: '2026-10-31' };
      for (const bad of [
        { ...base, startDate: '2026-02-30' },
        { ...base, endDate: '31-10-2026' },
        { ...base, startDate: '2026-11-01' },
        { ...base, filterType: 'Unpaid' },
        { ...base, nextToken: 'not-a-token' },
        { ...base, nextToken: Buffer.from(JSON.stringify(['x', 1])).toString('base64url') },
        // A time no bigint holds, or not a whole number: PostgreSQL would fail the query (a 500).
        { ...base, nextToken: Buffer.from(JSON.stringify([1e300, 'x'])).toString('base64url') },
        { ...base, nextToken: Buffer.from(JSON.stringify([1.5, 'x'])).toString('base64url') },
        { ...base, nextToken: Buffer.from(JSON.stringify([1, 'x\u0000'])).toString('base64url') },
      ]) {
        const res = await list(bad);
        expect([bad, res.status, res.body.error.code]).toEqual([bad, 400, 'VALIDATION']);
      }
      const missing = await list({ ...base, businessId: Bun.randomUUIDv7() });
      expect(missing.status).toBe(404);
    });
  },
  // The test kit's support cookie, and real sessions (t.signIn) for the pharmacy user.
  (base) => ({
    auth: {
      principalOf: async (request, ...rest) =>
        (await testAuth.principalOf(request, ...rest)) ?? base.auth.principalOf(request, ...rest),
    },
  }),
  {
    JUDOPAY_API_URL: judo.url,
    JUDOPAY_LIVE_API_URL: 'http://127.0.0.1:1',
    JUDOPAY_WEBHOOK_USER: webhookAuth.user,
    JUDOPAY_WEBHOOK_PASSWORD: webhookAuth.password,
  },
);
