import { afterAll, afterEach, expect, it } from 'bun:test';
import { startFakeJudopay } from '../../payments/fake-judopay.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { dataUrl, pngBytes } from '../../testing/businesses.ts';
import { chargedOrder, chargingBusiness, judoAccount, patientActor } from '../../testing/checkout.ts';
import { seedBusiness, withTestAuth } from '../../testing/hub.ts';
import { declareExemption } from '../checkout/exemption.ts';
import { completeJudoOrderPayment, createJudoPaymentSession } from '../checkout/service.ts';
import { type MonthPair, rebuildMonthlyStats, runMonthlyStats } from './monthly-job-repository.ts';
import { monthIndex, monthlyRows } from './monthly-repository.ts';

/*
 * A second reader's review of the monthly figures (issue 21): the paid amount is what the orders were
 * owed (a card payment's part owed back is not income), and one business whose month cannot be
 * recomputed never holds up the others'.
 */

const judo = startFakeJudopay([judoAccount]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

const signature = dataUrl('image/png', pngBytes(2048));
const at = (t: TestApi, moment: string) => t.advance(Date.parse(moment) - t.deps.now());
const OCT = monthIndex(2026, 10);

describeApi(
  'reports: the monthly figures, reviewed',
  (t) => {
    const october = async (businessId: string) => (await monthlyRows(t.db, [businessId], OCT, OCT))[0];

    it('counts as paid what the orders were owed: the overpaid part to refund is not paid income', async () => {
      at(t, '2026-10-12T10:00:00Z');
      const estate = await chargingBusiness(t);
      const patient = patientActor(estate);
      // £9.90 + £2.00; the patient starts paying £11.90, then declares F: only £2.00 was owed.
      const orderId = await chargedOrder(t, estate, { prescriptionCharge: 990, retailCharge: 200 });
      const session = await createJudoPaymentSession(t.deps, patient, { orderId });
      await declareExemption(t.deps, patient, {
        orderId,
        exemptionCode: 'F',
        nameOfDeclarant: 'Sam Patient',
        onBehalfOfPatient: false,
        signature,
      });
      const receipt = judo.pay(session.yourPaymentReference, 'Success');
      await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: receipt.receiptId });
      // A plain £11.90 payment beside it.
      const plain = await chargedOrder(t, estate, { prescriptionCharge: 990, retailCharge: 200 });
      const second = await createJudoPaymentSession(t.deps, patient, { orderId: plain });
      const paid = judo.pay(second.yourPaymentReference, 'Success');
      await completeJudoOrderPayment(t.deps, patient, { orderId: plain, receiptId: paid.receiptId });
      await runMonthlyStats(t.db, t.deps.now());
      expect(await october(estate.businessId)).toMatchObject({ paidAmount: 200 + 1190, exemptionsByCode: { F: 1 } });
    });

    it("recomputes the other businesses when one business's month fails, and retries that one next run", async () => {
      at(t, '2026-10-12T10:00:00Z');
      const bad = await chargingBusiness(t, { judo: false });
      const good = await chargingBusiness(t, { judo: false });
      const badOrder = await chargedOrder(t, bad);
      await chargedOrder(t, good);
      // A payment event whose amount no query can read (a hand-edited or corrupted row).
      await t.db
        .insertInto('order_events')
        .values({
          id: Bun.randomUUIDv7(),
          business_id: bad.businessId,
          order_id: badOrder,
          order_reference: 'broken',
          patient_id: bad.patientId,
          code: 'PAYMENT_SUCCEEDED',
          data: JSON.stringify({ amount: 'not a number' }),
          created: t.deps.now(),
        })
        .execute();
      const failures: MonthPair[] = [];
      const run = await runMonthlyStats(t.db, t.deps.now(), { batch: 1, onError: (pair) => failures.push(pair) });
      expect(run.changed).toBe(1);
      expect(failures).toEqual([{ businessId: bad.businessId, month: OCT }]);
      expect(await october(good.businessId)).toMatchObject({ ordersAdded: 1 });
      // The failed business's change rows stay for the next run; the good one's are gone.
      const left = await t.db.selectFrom('monthly_stats_changes').select('business_id').distinct().execute();
      expect(left).toEqual([{ business_id: bad.businessId }]);
      // Mended, the next run folds it in.
      await t.db.deleteFrom('order_events').where('order_reference', '=', 'broken').execute();
      expect(await runMonthlyStats(t.db, t.deps.now())).toEqual({ months: 1, changed: 1 });
      expect(await october(bad.businessId)).toMatchObject({ ordersAdded: 1 });
      expect(await t.db.selectFrom('monthly_stats_changes').select('id').execute()).toEqual([]);
    });

    it('gives a month its whole outage when the machine comes back just after it ended, between two runs', async () => {
      const businessId = await seedBusiness(t.db, 'b-late-up');
      await t.db
        .insertInto('machines')
        .values({
          id: 'm-late-up',
          business_id: businessId,
          name: 'Front',
          number_of_slots: 12,
          created: 1,
          updated: 1,
        })
        .execute();
      const event = (code: string, moment: string) =>
        t.db
          .insertInto('machine_events')
          .values({
            id: Bun.randomUUIDv7(),
            business_id: businessId,
            machine_id: 'm-late-up',
            code,
            level: 'warn',
            created: Date.parse(moment),
          })
          .execute();
      // Offline from 20:00 on 31 October (GMT); the job runs at 23:55, then the machine is back at 00:01.
      await event('MP_0006', '2026-10-31T20:00:00Z');
      at(t, '2026-10-31T23:55:00Z');
      await runMonthlyStats(t.db, t.deps.now());
      expect((await october(businessId))?.machineDowntimeMinutes).toBe(235);
      at(t, '2026-11-01T00:01:00Z');
      await event('MP_0007', '2026-11-01T00:01:00Z');
      at(t, '2026-11-01T00:05:00Z');
      await runMonthlyStats(t.db, t.deps.now());
      expect((await october(businessId))?.machineDowntimeMinutes).toBe(240);
      // As a rebuild computes it: nothing left to change.
      expect((await rebuildMonthlyStats(t.db, [businessId], OCT, t.deps.now())).changed).toBe(0);
    });

    it('carries the patient count into months nothing happened in', async () => {
      at(t, '2026-09-15T10:00:00Z');
      // One patient, added in September.
      const estate = await chargingBusiness(t, { judo: false });
      at(t, '2026-09-20T10:00:00Z');
      await runMonthlyStats(t.db, t.deps.now());
      // Two quiet months later, the job has had nothing to do: October and November have no stored row.
      at(t, '2026-11-20T10:00:00Z');
      await runMonthlyStats(t.db, t.deps.now());
      const rows = await monthlyRows(t.db, [estate.businessId], monthIndex(2026, 9), monthIndex(2026, 11));
      expect(rows.map((r) => [r.month, r.initialPatientCount, r.patientDelta])).toEqual([
        [9, 0, 1],
        [10, 1, 0],
        [11, 1, 0],
      ]);
      // A page starting after the last stored month carries it too.
      const [december] = await monthlyRows(t.db, [estate.businessId], monthIndex(2026, 12), monthIndex(2026, 12));
      expect(december?.initialPatientCount).toBe(1);
    });
  },
  withTestAuth,
  { JUDOPAY_API_URL: judo.url, JUDOPAY_LIVE_API_URL: 'http://127.0.0.1:1' },
);
