import { afterAll, afterEach, expect, it } from 'bun:test';
import type { MonthlyBusinessStats } from '@medlocker/core';
import { startFakeJudopay } from '../../payments/fake-judopay.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { dataUrl, pngBytes } from '../../testing/businesses.ts';
import { chargedOrder, chargingBusiness, judoAccount, patientActor, webhookAuth } from '../../testing/checkout.ts';
import { asSupport, listen, lockerEvents, seedBusiness, TestLocker, testAuth, testMachine } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { declareExemption } from '../checkout/exemption.ts';
import { completeJudoOrderPayment, createJudoPaymentSession } from '../checkout/service.ts';
import { recordExpiredOrders } from '../orders/expiry.ts';
import { medianMinutes, monthBounds } from './monthly-compute-repository.ts';
import { runMonthlyStats } from './monthly-job-repository.ts';
import { emptyMonth, monthIndex, monthlyRows } from './monthly-repository.ts';

/*
 * The monthly figures (issue 21): a known set of orders taken through their lifecycle with the real
 * services, the API and a locker on the machine hub, across September, October and November 2026
 * (London: BST until Sunday 25 October 01:00 UTC, then GMT), and every figure of each month checked
 * exactly. Then: a late-committed event is picked up, and a rebuild twice changes nothing.
 */

const at = (t: TestApi, moment: string) => t.advance(Date.parse(moment) - t.deps.now());
const signature = dataUrl('image/png', pngBytes(2048));

const judo = startFakeJudopay([judoAccount]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

const SEP = monthIndex(2026, 9);
const OCT = monthIndex(2026, 10);
const NOV = monthIndex(2026, 11);

it('London months start at London midnight, whatever the clocks do', () => {
  expect(monthBounds(OCT)).toEqual({
    start: Date.parse('2026-09-30T23:00:00Z'),
    end: Date.parse('2026-11-01T00:00:00Z'),
  });
  expect(monthBounds(monthIndex(2027, 3))).toEqual({
    start: Date.parse('2027-03-01T00:00:00Z'),
    end: Date.parse('2027-03-31T23:00:00Z'),
  });
  expect(monthBounds(monthIndex(2026, 12)).end).toBe(Date.parse('2027-01-01T00:00:00Z'));
  expect(medianMinutes([])).toBeNull();
  expect(medianMinutes([5, 1, 3])).toBe(3);
  expect(medianMinutes([90, 4380])).toBe(2235);
});

describeApi(
  'reports: the monthly figures job',
  (t) => {
    const ok = async (res: Promise<{ status: number; body: Record<string, unknown> }>) => {
      const r = await res;
      expect([r.status, r.body]).toEqual([200, expect.anything()]);
      return r.body;
    };

    /** The set, across the months; returns the business and the locker's hub (to stop). */
    async function lifecycle() {
      // 30 Sep 23:30 BST: September. The business and its first patient.
      at(t, '2026-09-30T22:30:00Z');
      const estate = await chargingBusiness(t);
      const other = await chargingBusiness(t, { judo: false });
      const machine = await testMachine(t, estate.businessId);
      const hub = listen(t);
      const locker = await TestLocker.connect(hub.url, machine.token);
      await locker.boot();
      const event = lockerEvents(t);
      const order = async (barcode: string) =>
        (
          (await ok(
            t.call(
              'orders',
              'create',
              { businessId: estate.businessId, patientId: estate.patientId, barcode },
              asSupport,
            ),
          )) as { order: { id: string } }
        ).order.id;
      const load = async (barcode: string) =>
        expect((await locker.call('BagLoaded', event({ barcode, location: barcode.slice(-2) })))[2]).toMatchObject({
          orderId: expect.any(String),
        });
      const outOfOrder = () => ok(t.call('machines', 'toggleOutOfOrderStatus', { id: machine.id }, asSupport));

      // 1 Oct 00:30 BST: October's first order.
      at(t, '2026-09-30T23:30:00Z');
      const o1 = await order('RX-A1');
      at(t, '2026-10-05T09:00:00Z');
      const p2 = (
        (await ok(
          t.call('patients', 'create', { businessId: estate.businessId, patient: testPatient(2) }, asSupport),
        )) as { patient: { id: string } }
      ).patient.id;
      const o2 = await order('RX-A2');
      const o3 = await order('RX-A3');
      at(t, '2026-10-05T10:00:00Z');
      await load('RX-A1');
      await load('RX-A2');
      at(t, '2026-10-05T11:00:00Z');
      await ok(t.call('orders', 'setRevealPinReason', { id: o2, reason: 'Lost the text' }, asSupport));
      // Collected 24 h 30 min after loading, within its two days.
      at(t, '2026-10-06T10:30:00Z');
      await locker.call('BagCollected', event({ barcode: 'RX-A1', location: 'A1' }));
      // o2 expires on 7 Oct 10:00; the expiry is recorded, then staff take it out.
      at(t, '2026-10-08T09:00:00Z');
      expect(await recordExpiredOrders(t.deps, 500)).toBe(1);
      at(t, '2026-10-09T09:00:00Z');
      await ok(t.call('orders', 'markRemoved', { id: o2 }, asSupport));
      at(t, '2026-10-10T12:00:00Z');
      await ok(t.call('orders', 'cancel', { id: o3, reason: 'Duplicate' }, asSupport));
      // £11.90 by card, and an exemption F.
      at(t, '2026-10-12T09:00:00Z');
      const paid = await chargedOrder(t, estate, { prescriptionCharge: 990, retailCharge: 200 });
      const session = await createJudoPaymentSession(t.deps, patientActor(estate), { orderId: paid });
      const receipt = judo.pay(session.yourPaymentReference, 'Success');
      expect(
        (await completeJudoOrderPayment(t.deps, patientActor(estate), { orderId: paid, receiptId: receipt.receiptId }))
          .outcome,
      ).toBe('succeeded');
      const exempt = await chargedOrder(t, estate, { prescriptionCharge: 990, retailCharge: 0 });
      await declareExemption(t.deps, patientActor(estate), {
        orderId: exempt,
        exemptionCode: 'F',
        nameOfDeclarant: 'Sam Patient',
        onBehalfOfPatient: false,
        signature,
      });
      // Machine events: two alarms and one routine event.
      at(t, '2026-10-20T09:00:00Z');
      for (const code of ['EM_0016', 'EM_0017', 'EM_0003']) await locker.call('MachineEvent', event({ code }));
      // Out of order across the clock change: 01:30 BST to 01:30 GMT is one hour.
      at(t, '2026-10-25T00:30:00Z');
      await outOfOrder();
      at(t, '2026-10-25T01:30:00Z');
      await outOfOrder();
      // Loaded on 31 Oct, out of order from 23:00 until 01:00 on 1 Nov, collected at 00:30 on 1 Nov.
      at(t, '2026-10-31T22:00:00Z');
      await order('RX-A6');
      at(t, '2026-10-31T23:00:00Z');
      await load('RX-A6');
      await outOfOrder();
      at(t, '2026-11-01T00:30:00Z');
      await locker.call('BagCollected', event({ barcode: 'RX-A6', location: 'A6' }));
      at(t, '2026-11-01T01:00:00Z');
      await outOfOrder();
      // November: one patient joins and one leaves; an order collected a day after its expiry; exemption A.
      at(t, '2026-11-02T09:00:00Z');
      await ok(t.call('patients', 'create', { businessId: estate.businessId, patient: testPatient(3) }, asSupport));
      await ok(t.call('patients', 'delete', { id: p2 }, asSupport));
      const o7 = await order('RX-A7');
      await load('RX-A7');
      at(t, '2026-11-05T10:00:00Z');
      await ok(t.call('orders', 'markCollected', { id: o7 }, asSupport));
      at(t, '2026-11-10T09:00:00Z');
      const exemptA = await chargedOrder(t, estate, { prescriptionCharge: 990, retailCharge: 0 });
      await declareExemption(t.deps, patientActor(estate), {
        orderId: exemptA,
        exemptionCode: 'A',
        nameOfDeclarant: 'Sam Patient',
        onBehalfOfPatient: false,
        signature,
      });
      // Another business's order in October: never in this business's figures.
      at(t, '2026-10-15T09:00:00Z');
      await chargedOrder(t, other);
      at(t, '2026-11-20T09:00:00Z');
      locker.close();
      hub.stop();
      return { estate, other, o1 };
    }

    /** Every patient message of the set sent (as the gateway would report), but one failed. */
    async function settleMessages(businessId: string) {
      await t.db
        .updateTable('message_outbox')
        .set({ status: 'success' })
        .where('business_id', '=', businessId)
        .where('patient_id', 'is not', null)
        .execute();
      // The collection message of o6 (1 Nov) by SMS failed.
      await t.db
        .updateTable('message_outbox')
        .set({ status: 'failed' })
        .where('business_id', '=', businessId)
        .where('template_key', '=', 'orderCollected')
        .where('channel', '=', 'sms')
        .where('created', '=', Date.parse('2026-11-01T00:30:00Z'))
        .execute();
    }

    const rows = (businessId: string) => monthlyRows(t.db, [businessId], SEP, NOV);

    const expected = (businessId: string): MonthlyBusinessStats[] => [
      { ...emptyMonth(businessId, 2026, 9), initialPatientCount: 0, patientDelta: 1 },
      {
        ...emptyMonth(businessId, 2026, 10),
        ordersAdded: 6,
        ordersLoaded: 3,
        ordersCollected: 1,
        ordersExpired: 1,
        ordersCancelled: 1,
        ordersRemoved: 1,
        collectedWithinWindow: 1,
        totalPickupMinutes: 1470,
        medianPickupMinutes: 1470,
        paidAmount: 1190,
        exemptionsByCode: { F: 1 },
        pinReveals: 1,
        // By SMS: o1 and o2 ready (5 Oct), o1 collected, o2 expired, o6 ready (31 Oct 23:00 GMT).
        notificationsSent: 5,
        messagesByChannel: { sms: { sent: 5, failed: 0 } },
        machineDowntimeMinutes: 120,
        alarmsByCode: { EM_0003: 1, EM_0016: 1 },
        initialPatientCount: 1,
        patientDelta: 1,
      },
      {
        ...emptyMonth(businessId, 2026, 11),
        ordersAdded: 2,
        ordersLoaded: 1,
        ordersCollected: 2,
        collectedWithinWindow: 1,
        totalPickupMinutes: 90 + 4380,
        medianPickupMinutes: 2235,
        exemptionsByCode: { A: 1 },
        // o7 ready sent; o6 collected (1 Nov 00:30) failed.
        notificationsSent: 1,
        messagesByChannel: { sms: { sent: 1, failed: 1 } },
        machineDowntimeMinutes: 60,
        initialPatientCount: 2,
        patientDelta: 0,
      },
    ];

    const table = () =>
      t.db
        .selectFrom('monthly_business_stats')
        .selectAll()
        .orderBy('business_id')
        .orderBy('year')
        .orderBy('month')
        .execute();

    it('computes every figure of each month exactly from the lifecycle', async () => {
      const { estate, other } = await lifecycle();
      await settleMessages(estate.businessId);
      const run = await runMonthlyStats(t.db, t.deps.now());
      expect(run.changed).toBeGreaterThan(0);
      expect(await t.db.selectFrom('monthly_stats_changes').select('id').execute()).toEqual([]);
      expect(await rows(estate.businessId)).toEqual(expected(estate.businessId));
      // The other business: one order added in October, its patient in September.
      const theirs = await rows(other.businessId);
      expect(theirs.map((r) => [r.month, r.ordersAdded, r.initialPatientCount, r.patientDelta])).toEqual([
        [9, 0, 0, 1],
        [10, 1, 1, 0],
        [11, 0, 1, 0],
      ]);
      // Nothing changed: a second run has nothing to do.
      expect(await runMonthlyStats(t.db, t.deps.now())).toEqual({ months: 0, changed: 0 });
    }, 60_000);

    it('picks up an event committed after a run even when it is dated before it', async () => {
      const { estate, o1 } = await lifecycle();
      await settleMessages(estate.businessId);
      await runMonthlyStats(t.db, t.deps.now());
      const reveal = {
        business_id: estate.businessId,
        order_id: o1,
        order_reference: 'late',
        patient_id: estate.patientId,
        code: 'PIN_REVEALED',
        barcode: null,
        full_patient_name: null,
        patient_display_id: null,
        data: '{}',
        // Dated 10 October, well before the last run.
        created: Date.parse('2026-10-10T10:00:00Z'),
      };
      if (t.deps.dbKind === 'postgres') {
        // A transaction that wrote its event and has not committed while the job runs.
        let release!: () => void;
        let written!: () => void;
        const gate = new Promise<void>((r) => {
          release = r;
        });
        const wrote = new Promise<void>((r) => {
          written = r;
        });
        const late = t.db.transaction().execute(async (tx) => {
          await tx
            .insertInto('order_events')
            .values({ id: Bun.randomUUIDv7(), ...reveal })
            .execute();
          written();
          await gate;
        });
        await wrote;
        expect(await runMonthlyStats(t.db, t.deps.now())).toEqual({ months: 0, changed: 0 });
        release();
        await late;
      } else {
        await t.db
          .insertInto('order_events')
          .values({ id: Bun.randomUUIDv7(), ...reveal })
          .execute();
      }
      expect(await runMonthlyStats(t.db, t.deps.now())).toEqual({ months: 1, changed: 1 });
      const october = (await rows(estate.businessId))[1];
      expect(october?.pinReveals).toBe(2);
      // Two runs at once (two api processes): the same rows.
      await t.db
        .insertInto('order_events')
        .values({ id: Bun.randomUUIDv7(), ...reveal })
        .execute();
      await Promise.all([runMonthlyStats(t.db, t.deps.now()), runMonthlyStats(t.db, t.deps.now())]);
      expect((await rows(estate.businessId))[1]?.pinReveals).toBe(3);
    }, 60_000);

    it('splits downtime across months: offline and out of order overlapping once, archived not down, down now to now', async () => {
      const businessId = await seedBusiness(t.db, 'b9');
      const machine = async (id: string) =>
        t.db
          .insertInto('machines')
          .values({ id, business_id: businessId, name: id, number_of_slots: 12, created: 1, updated: 1 })
          .execute();
      await machine('m1');
      await machine('m2');
      let n = 0;
      const events = (machineId: string, list: [string, string][]) =>
        t.db
          .insertInto('machine_events')
          .values(
            list.map(([code, moment]) => ({
              id: `e${++n}`,
              business_id: businessId,
              machine_id: machineId,
              code,
              level: 'warn' as const,
              created: Date.parse(moment),
            })),
          )
          .execute();
      // m1: offline from 23:00 BST on 30 Sep (September) to 01:00 BST on 1 Oct; out of order from inside
      // that outage (not counted twice) until 02:00 BST.
      await events('m1', [
        ['MP_0006', '2026-09-30T22:00:00Z'],
        ['MP_0003', '2026-09-30T23:30:00Z'],
        ['MP_0007', '2026-10-01T00:00:00Z'],
        ['MP_0002', '2026-10-01T01:00:00Z'],
        // Archived while offline: an archived machine is not down.
        ['MP_0006', '2026-10-10T10:00:00Z'],
        ['MP_0004', '2026-10-10T10:30:00Z'],
        ['MP_0005', '2026-10-10T12:00:00Z'],
        ['MP_0007', '2026-10-10T12:15:00Z'],
      ]);
      // m2: out of order from 31 Oct 23:50 and still out of order now (20 Nov 09:00).
      await events('m2', [['MP_0003', '2026-10-31T23:50:00Z']]);
      await t.db
        .updateTable('machines')
        .set({ out_of_order_at: Date.parse('2026-10-31T23:50:00Z') })
        .where('id', '=', 'm2')
        .execute();
      at(t, '2026-11-20T09:00:00Z');
      // One change row a batch: the run reads batch after batch until none is left.
      expect(await t.db.selectFrom('monthly_stats_changes').select('id').execute()).toHaveLength(2);
      await runMonthlyStats(t.db, t.deps.now(), { batch: 1 });
      expect(await t.db.selectFrom('monthly_stats_changes').select('id').execute()).toEqual([]);
      const minutes = (await rows(businessId)).map((r) => r.machineDowntimeMinutes);
      // Sep: 22:00–23:00 UTC = 60. Oct: m1 23:00–01:00 = 120, 10:00–10:30 = 30, 12:00–12:15 = 15; m2 10.
      // Nov: m2 from 1 Nov 00:00 to 20 Nov 09:00 = 19 days 9 hours.
      expect(minutes).toEqual([60, 120 + 30 + 15 + 10, (19 * 24 + 9) * 60]);
      // An hour later the job, with nothing new logged, still moves the current month on.
      at(t, '2026-11-20T10:00:00Z');
      expect(await runMonthlyStats(t.db, t.deps.now())).toEqual({ months: 2, changed: 1 });
      expect((await rows(businessId))[2]?.machineDowntimeMinutes).toBe((19 * 24 + 10) * 60);
    });

    it('rebuilds: the same rows as the job, and twice changes nothing', async () => {
      const { estate, other } = await lifecycle();
      await settleMessages(estate.businessId);
      await runMonthlyStats(t.db, t.deps.now());
      const before = await table();
      const rebuild = (input: Record<string, unknown>) => t.call('reports', 'rebuildMonthlyStats', input, asSupport);
      const same = await rebuild({ businessId: estate.businessId, from: '2026-09' });
      expect([same.status, same.body]).toEqual([200, { businesses: 1, months: 3, changed: 0, nextToken: null }]);
      expect(await table()).toEqual(before);
      // From nothing: every business's rows again, then a second rebuild changes none.
      await t.db.deleteFrom('monthly_business_stats').execute();
      const all = await rebuild({});
      expect(all.status).toBe(200);
      expect(all.body).toEqual({ businesses: 2, months: 6, changed: 6, nextToken: null });
      // Carrying on after a business (the nextToken of a call that ran out of time): only those after it.
      const [firstId, secondId] = [estate.businessId, other.businessId].sort() as [string, string];
      await t.db.deleteFrom('monthly_business_stats').execute();
      const rest = await rebuild({ nextToken: firstId });
      expect(rest.body).toEqual({ businesses: 1, months: 3, changed: 3, nextToken: null });
      expect((await table()).map((r) => r.business_id)).toEqual([secondId, secondId, secondId]);
      expect((await rebuild({})).body).toMatchObject({ businesses: 2, changed: 3 });
      expect(await rows(estate.businessId)).toEqual(expected(estate.businessId));
      const rebuilt = await table();
      expect((await rebuild({})).body).toMatchObject({ changed: 0 });
      expect(await table()).toEqual(rebuilt);
      // Bad input: a clear error and nothing changed.
      for (const from of ['2026-13', '2026-1', 'last month', '2027-01']) {
        const bad = await rebuild({ from });
        expect([from, bad.status, bad.body.error.code]).toEqual([from, 400, 'VALIDATION']);
      }
      const badToken = await rebuild({ nextToken: 'x'.repeat(500) });
      expect(badToken.status).toBe(400);
      const missing = await rebuild({ businessId: Bun.randomUUIDv7() });
      expect(missing.status).toBe(404);
      expect(await table()).toEqual(rebuilt);
    }, 60_000);
  },
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
