import { expect, it } from 'bun:test';
import { verifyPin } from './areas/orders/locker-service.ts';
import { runMonthlyStats } from './areas/reports/monthly-job-repository.ts';
import { localJudoAccount } from './payments/local-judopay.ts';
import { seedIfEmpty } from './seed-demo.ts';
import { describeApi, type TestApi } from './testing/api.ts';
import { asSupport, withTestAuth } from './testing/hub.ts';

describeApi(
  'the demo seed at start',
  (t) => {
    const seeded = async () => {
      await seedIfEmpty(t.deps);
      return t.db.selectFrom('orders').selectAll().execute();
    };

    it('gives the demo business months of history: the monthly figures job fills its rows', async () => {
      await seeded();
      await runMonthlyStats(t.db, t.deps.now());
      const harborne = await t.db
        .selectFrom('monthly_business_stats as s')
        .innerJoin('businesses as b', 'b.id', 's.business_id')
        .select(['s.orders_collected', 's.paid_amount', 's.exemptions_by_code'])
        .where('b.name', 'like', '%Harborne%')
        .execute();
      const active = harborne.filter((r) => Number(r.orders_collected) > 0);
      expect(active.length).toBeGreaterThanOrEqual(6);
      expect(harborne.some((r) => Number(r.paid_amount) > 0)).toBe(true);
      expect(harborne.some((r) => JSON.stringify(r.exemptions_by_code).includes('"D"'))).toBe(true);
    });

    it("gives a demo order's PIN to staff, and that PIN opens the order's slot at its locker", async () => {
      const orders = await seeded();
      const loaded = orders.filter((o) => o.status === 'loaded');
      expect(loaded.length).toBeGreaterThan(1);
      let accepted = 0;
      for (const order of loaded) {
        const revealed = await t.call(
          'orders',
          'setRevealPinReason',
          { id: order.id, reason: 'Patient lost SMS' },
          asSupport,
        );
        expect(revealed.status).toBe(200);
        expect(revealed.body.pin).toMatch(/^\d{8}$/);
        const machineId = order.machine_id ?? '';
        const locker = {
          kind: 'locker' as const,
          machineId,
          businessId: order.business_id,
          origin: { via: 'test' as const, requestId: 'seed-test', ip: null, userAgent: null },
        };
        const answer = await verifyPin(t.deps, locker, revealed.body.pin);
        const location = (order.machine_details as { location: string } | null)?.location;
        // An unpaid order at a locker that takes payments asks for the payment before it opens.
        if (order.payment_status === 'unpaid' && order.machine_payment) {
          expect(answer).toEqual({ status: 'PaymentRequired' });
        } else {
          expect(answer).toMatchObject({ status: 'Accepted', barcode: order.barcode, location });
          accepted++;
        }
      }
      expect(accepted).toBeGreaterThan(0);
    });

    it('carries on the demo references and machine sequences for a new order', async () => {
      const orders = await seeded();
      const last = orders.filter((o) => o.machine_id !== null).sort((a, b) => Number(b.created) - Number(a.created))[0];
      if (!last?.machine_id) throw new Error('the demo has no order in a machine');
      const ofBusiness = orders.filter((o) => o.business_id === last.business_id);
      const inMachine = orders.filter((o) => o.machine_id === last.machine_id);
      const created = await t.call(
        'orders',
        'create',
        {
          businessId: last.business_id,
          patientId: last.patient_id,
          barcode: 'NEW-AFTER-SEED',
          machineId: last.machine_id,
        },
        asSupport,
      );
      expect(created.status).toBe(200);
      expect(created.body.order.reference).toBe(String(ofBusiness.length + 1).padStart(6, '0'));
      expect(ofBusiness.map((o) => o.reference)).not.toContain(created.body.order.reference);
      expect(created.body.order.machineSequence).toBe(inMachine.length + 1);
    });
  },
  withTestAuth,
);

/** The businesses whose payment settings hold a Judopay account, with its id. */
const judoBusinesses = (t: TestApi) =>
  t.db
    .selectFrom('payment_settings as p')
    .innerJoin('businesses as b', 'b.id', 'p.business_id')
    .select(['b.name', 'p.judo_id', 'p.judo_sandbox'])
    .orderBy('b.name')
    .execute();

describeApi('the demo seed with the local Judopay (outside production, no JUDOPAY_API_URL)', (t) => {
  it("gives each demo pharmacy taking payments the local Judopay's account, in sandbox", async () => {
    expect(t.deps.config.judopay.local).toBe(true);
    await seedIfEmpty(t.deps);
    expect(await judoBusinesses(t)).toEqual([
      { name: 'Chorlton Green Chemist', judo_id: localJudoAccount.id, judo_sandbox: true },
      { name: 'Harborne High Street Pharmacy', judo_id: localJudoAccount.id, judo_sandbox: true },
    ]);
  });
});

describeApi(
  'the demo seed with a Judopay named (JUDOPAY_API_URL)',
  (t) => {
    it('gives no business a Judopay account', async () => {
      await seedIfEmpty(t.deps);
      expect(await judoBusinesses(t)).toEqual([]);
    });
  },
  () => ({}),
  { JUDOPAY_API_URL: 'https://api-sandbox.judopay.com' },
);
