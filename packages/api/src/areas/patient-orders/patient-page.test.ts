import { afterAll, afterEach, expect, it } from 'bun:test';
import { formatPin } from '@medlocker/core';
import { systemActor } from '../../context/actor.ts';
import { startFakeJudopay } from '../../payments/fake-judopay.ts';
import { PATIENT_COOKIE } from '../../sessions/patient-sessions.ts';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';
import {
  chargedOrder,
  chargingBusiness,
  judoAccount,
  orderRow,
  setState,
  webhookAuth,
} from '../../testing/checkout.ts';
import { asSupport, withBootedLocker, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { createOrder } from '../orders/create.ts';
import { toStoredOrder } from '../orders/mapping-repository.ts';
import { pinOf } from '../orders/pin.ts';

const judo = startFakeJudopay([judoAccount]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

const DAY = 24 * 60 * 60_000;
/** 1×1 transparent PNG, as a drawn signature. */
const signature =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describeApi(
  'patient page: the patient’s own orders, PIN and checkout',
  (t) => {
    /** A charged order (£9.90 + £2.00 unless told) of a card-taking business, and its patient signed in by date of birth. */
    async function signedIn(charges?: { prescriptionCharge?: number; retailCharge?: number }) {
      const estate = await chargingBusiness(t);
      const orderId = await chargedOrder(t, estate, charges);
      const res = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: '1980-01-02' });
      expect(res.status).toBe(200);
      const set = res.headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`)) ?? '';
      return { ...estate, orderId, as: { cookie: set.split(';')[0] as string } };
    }
    const load = async (orderId: string, options: { machinePayment: boolean; expiresAt?: number }) => {
      await setState(t, orderId, 'loaded', options.expiresAt ?? t.deps.now() + DAY);
      await t.db
        .updateTable('orders')
        .set({
          machine_payment: options.machinePayment,
          machine_details: JSON.stringify({ location: 'B4', machineId: 'm1', machineName: 'Front door', pin: null }),
        })
        .where('id', '=', orderId)
        .execute();
    };
    const pinIn = async (orderId: string) =>
      formatPin(pinOf(t.deps.config.secretsKey, toStoredOrder(await orderRow(t, orderId))) ?? '');

    it('shows an order not yet loaded with what is owed, and nothing of the staff’s', async () => {
      const { orderId, as, businessId } = await signedIn();
      const res = await t.call('patientOrders', 'get', { orderId }, as);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        order: {
          id: orderId,
          status: 'new',
          live: true,
          expired: false,
          paymentStatus: 'unpaid',
          paymentRequired: true,
          prescriptionCharge: 990,
          retailCharge: 200,
          amountDue: 1190,
          amountPaid: 0,
        },
        location: null,
        pin: null,
        cardPayments: true,
        receiptSentTo: null,
      });
      const business = await t.db
        .selectFrom('businesses')
        .select(['name', 'email'])
        .where('id', '=', businessId)
        .executeTakeFirstOrThrow();
      expect(res.body.pharmacy.name).toBe(business.name);
      // How to reach it: the contact number of its payment settings, and its email address.
      expect(res.body.pharmacy).toMatchObject({ phone: '0121 496 0000', email: business.email });
      await t.call('paymentSettings', 'deletePaymentSettings', { businessId }, asSupport);
      const noSettings = await t.call('patientOrders', 'get', { orderId }, as);
      expect(noSettings.body.pharmacy).toMatchObject({ phone: null, email: business.email });
      const text = JSON.stringify(res.body);
      for (const secret of ['RX-', 'Family1', 'barcode', 'patientName', 'createdBy'])
        expect(text).not.toContain(secret);
    });

    it('gives the PIN, grouped, only for a loaded, unexpired order the locker would open', async () => {
      const { orderId, as } = await signedIn();
      // Loaded at a machine taking payment, unpaid: the locker would answer PaymentRequired, so no PIN.
      await load(orderId, { machinePayment: true });
      const unpaid = await t.call('patientOrders', 'get', { orderId }, as);
      expect(unpaid.body).toMatchObject({ pin: null, location: 'B4', order: { paymentRequired: true } });
      // At a machine that does not take payment, the PIN works (as the order-ready text says).
      await load(orderId, { machinePayment: false });
      const pin = (await t.call('patientOrders', 'get', { orderId }, as)).body.pin;
      expect(pin).toMatch(/^\d{4} \d{4}$/);
      expect(pin).toBe(await pinIn(orderId));
      // Expired, collected, cancelled: no PIN, the history stays readable.
      await load(orderId, { machinePayment: false, expiresAt: t.deps.now() - 1 });
      const expired = await t.call('patientOrders', 'get', { orderId }, as);
      expect(expired.body).toMatchObject({ pin: null, order: { expired: true, live: false, paymentRequired: false } });
      for (const status of ['collected', 'cancelled', 'removed'] as const) {
        await setState(t, orderId, status);
        const past = await t.call('patientOrders', 'get', { orderId }, as);
        expect([past.status, past.body.pin, past.body.order.status]).toEqual([200, null, status]);
      }
      const shown = await t.db
        .selectFrom('audit_log')
        .select('action')
        .where('action', '=', 'order.pin.shownToPatient')
        .execute();
      expect(shown).toHaveLength(1);
    });

    it('lists the patient’s own orders, live first, and refuses another patient’s with 404', async () => {
      const { businessId, patientId, orderId, as } = await signedIn();
      const past = await chargedOrder(t, { businessId, patientId });
      await setState(t, past, 'collected');
      t.advance(1000);
      const newest = await chargedOrder(t, { businessId, patientId });
      const other = await t.call('patients', 'create', { businessId, patient: testPatient(2) }, asSupport);
      const theirs = await chargedOrder(t, { businessId, patientId: other.body.patient.id });
      const list = await t.call('patientOrders', 'list', {}, as);
      const ids = list.body.orders.map((o: { id: string }) => o.id);
      expect(ids.slice(0, 2).sort()).toEqual([orderId, newest].sort());
      expect(ids[2]).toBe(past);
      expect(ids).not.toContain(theirs);
      for (const res of [
        await t.call('patientOrders', 'get', { orderId: theirs }, as),
        await t.call('checkout', 'createJudoPaymentSession', { orderId: theirs }, as),
      ]) {
        expect([res.status, res.body.error.message]).toEqual([404, `No order with id ${theirs}`]);
      }
      expect(judo.requests).toEqual([]);
    });

    it('pays by card: Judopay sends the browser back to the order’s page, the receipt settles it, and the PIN shows', async () => {
      const { orderId, as } = await signedIn();
      await load(orderId, { machinePayment: true });
      const tampered = await t.call('checkout', 'createJudoPaymentSession', { orderId, amount: 1 }, as);
      expect(tampered.status).toBe(400);
      const session = await t.call('checkout', 'createJudoPaymentSession', { orderId }, as);
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ orderId, amount: 1190, currency: 'GBP' });
      const started = judo.payment(session.body.yourPaymentReference);
      expect(started).toMatchObject({
        successUrl: `${TEST_ORIGIN}/p/${orderId}`,
        cancelUrl: `${TEST_ORIGIN}/p/${orderId}`,
      });
      const receipt = judo.pay(session.body.yourPaymentReference, 'Success');
      const done = await t.call('checkout', 'completeJudoOrderPayment', { orderId, receiptId: receipt.receiptId }, as);
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({
        outcome: 'succeeded',
        changed: true,
        order: { paymentStatus: 'paid', amountPaid: 1190, amountDue: 0, paymentRequired: false },
      });
      const again = await t.call('checkout', 'completeJudoOrderPayment', { orderId, receiptId: receipt.receiptId }, as);
      expect(again.body).toMatchObject({ outcome: 'succeeded', changed: false });
      expect((await t.call('patientOrders', 'get', { orderId }, as)).body.pin).toBe(await pinIn(orderId));
    });

    it('declares an exemption, after which the PIN shows; staff cannot call the patient’s checkout', async () => {
      const { orderId, as } = await signedIn({ prescriptionCharge: 990 });
      await load(orderId, { machinePayment: true });
      const input = { orderId, exemptionCode: 'F', nameOfDeclarant: 'Alex Carer', onBehalfOfPatient: true, signature };
      expect((await t.call('checkout', 'declareExemption', input, asSupport)).status).toBe(403);
      expect((await t.call('checkout', 'declareExemption', input)).status).toBe(401);
      const declared = await t.call('checkout', 'declareExemption', input, as);
      expect(declared.status).toBe(200);
      expect(declared.body.order).toMatchObject({
        paymentStatus: 'exemption_declared',
        exemptionCode: 'F',
        amountDue: 0,
      });
      expect((await orderRow(t, orderId)).payment_status).toBe('exemption_declared');
      expect((await t.call('patientOrders', 'get', { orderId }, as)).body.pin).toBe(await pinIn(orderId));
      const twice = await t.call('checkout', 'declareExemption', input, as);
      expect(twice.status).toBe(409);
    });

    it('at a paying locker, the PIN the page withholds is refused until the exemption, then opens the slot', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        await t.db.updateTable('machines').set({ payments_enabled: true }).where('id', '=', machine.id).execute();
        await t.db
          .insertInto('business_feature_settings')
          .values({ business_id: 'b1', settings: JSON.stringify({ charges: { enabled: true } }), updated: 1 })
          .execute();
        const patient = await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(1) }, asSupport);
        const order = await createOrder(t.deps, systemActor('test'), {
          businessId: 'b1',
          patientId: patient.body.patient.id,
          machineId: machine.id,
          barcode: 'RX-LOCKER',
          prescriptionCharge: 990,
        });
        const loaded = await locker.call('BagLoaded', {
          eventId: 'ev-1',
          seq: 1,
          created: t.deps.now(),
          barcode: 'RX-LOCKER',
          location: 'C2',
        });
        expect(loaded[2]).toMatchObject({ orderId: order.id });
        const verified = await t.call('auth', 'verifyPatient', { orderId: order.id, dateOfBirth: '1980-01-02' });
        const as = { cookie: (verified.headers.getSetCookie()[0] ?? '').split(';')[0] as string };
        const before = await t.call('patientOrders', 'get', { orderId: order.id }, as);
        expect(before.body).toMatchObject({
          pin: null,
          location: 'C2',
          order: { paymentRequired: true, amountDue: 990 },
        });
        const pin = (await pinIn(order.id)).replace(' ', '');
        expect((await locker.call('VerifyPin', { pin }))[2]).toEqual({ status: 'PaymentRequired' });
        const declared = await t.call(
          'checkout',
          'declareExemption',
          {
            orderId: order.id,
            exemptionCode: 'A',
            nameOfDeclarant: 'Given1 Family1',
            onBehalfOfPatient: false,
            signature,
          },
          as,
        );
        expect(declared.status).toBe(200);
        const shown = (await t.call('patientOrders', 'get', { orderId: order.id }, as)).body.pin as string;
        expect(shown.replace(' ', '')).toBe(pin);
        expect((await locker.call('VerifyPin', { pin: shown.replace(' ', '') }))[2]).toMatchObject({
          status: 'Accepted',
          location: 'C2',
        });
      });
    }, 30_000);

    it('with a retail charge too, the PIN opens the locker only once the exemption is declared AND the retail charge paid', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        await t.db.updateTable('machines').set({ payments_enabled: true }).where('id', '=', machine.id).execute();
        await t.db
          .insertInto('business_feature_settings')
          .values({
            business_id: 'b1',
            settings: JSON.stringify({ charges: { enabled: true }, retailCharges: { enabled: true } }),
            updated: 1,
          })
          .execute();
        const saved = await t.call(
          'paymentSettings',
          'updatePaymentSettings',
          {
            businessId: 'b1',
            contactNumber: '0121 496 0000',
            legalInfo: 'High St Pharmacy Ltd',
            provider: 'judo',
            judo: {
              id: '100200300',
              sandbox: true,
              ...judoAccount,
              showVisa: true,
              showAmex: true,
              showMastercard: true,
            },
          },
          asSupport,
        );
        expect(saved.status).toBe(200);
        const patient = await t.call('patients', 'create', { businessId: 'b1', patient: testPatient(1) }, asSupport);
        const order = await createOrder(t.deps, systemActor('test'), {
          businessId: 'b1',
          patientId: patient.body.patient.id,
          machineId: machine.id,
          barcode: 'RX-BOTH',
          prescriptionCharge: 990,
          retailCharge: 250,
        });
        await locker.call('BagLoaded', {
          eventId: 'ev-b',
          seq: 1,
          created: t.deps.now(),
          barcode: 'RX-BOTH',
          location: 'D1',
        });
        const verified = await t.call('auth', 'verifyPatient', { orderId: order.id, dateOfBirth: '1980-01-02' });
        const as = { cookie: (verified.headers.getSetCookie()[0] ?? '').split(';')[0] as string };
        const pin = (await pinIn(order.id)).replace(' ', '');

        const declared = await t.call(
          'checkout',
          'declareExemption',
          {
            orderId: order.id,
            exemptionCode: 'F',
            nameOfDeclarant: 'Given1 Family1',
            onBehalfOfPatient: false,
            signature,
          },
          as,
        );
        expect(declared.status).toBe(200);
        expect(declared.body.order).toMatchObject({
          paymentStatus: 'unpaid',
          exemptionCode: 'F',
          paymentRequired: true,
          amountDue: 250,
        });
        // Declared, the retail charge still owed: no PIN on the page, and the locker refuses it.
        const after = await t.call('patientOrders', 'get', { orderId: order.id }, as);
        expect(after.body).toMatchObject({ pin: null, order: { amountDue: 250, paymentRequired: true } });
        expect((await locker.call('VerifyPin', { pin }))[2]).toEqual({ status: 'PaymentRequired' });

        const session = await t.call('checkout', 'createJudoPaymentSession', { orderId: order.id }, as);
        expect(session.body).toMatchObject({ amount: 250 });
        const receipt = judo.pay(session.body.yourPaymentReference, 'Success');
        const done = await t.call(
          'checkout',
          'completeJudoOrderPayment',
          { orderId: order.id, receiptId: receipt.receiptId },
          as,
        );
        expect(done.body.order).toMatchObject({ paymentStatus: 'paid', amountPaid: 250, exemptionCode: 'F' });
        const shown = (await t.call('patientOrders', 'get', { orderId: order.id }, as)).body.pin as string;
        expect(shown.replace(' ', '')).toBe(pin);
        expect((await locker.call('VerifyPin', { pin }))[2]).toMatchObject({ status: 'Accepted', location: 'D1' });
      });
    }, 30_000);
  },
  withTestAuth,
  {
    JUDOPAY_API_URL: judo.url,
    JUDOPAY_LIVE_API_URL: 'http://127.0.0.1:1',
    JUDOPAY_WEBHOOK_USER: webhookAuth.user,
    JUDOPAY_WEBHOOK_PASSWORD: webhookAuth.password,
  },
);
