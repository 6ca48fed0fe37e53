import { afterAll, afterEach, expect, it } from 'bun:test';
import type { Actor } from '../../context/actor.ts';
import { startFakeJudopay } from '../../payments/fake-judopay.ts';
import { describeApi } from '../../testing/api.ts';
import {
  attemptsOf,
  chargedOrder,
  chargingBusiness,
  eventsOf,
  JUDO_ID,
  judoAccount,
  orderRow,
  patientActor,
  refusal,
} from '../../testing/checkout.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { getPatientOrder } from '../patient-orders/patient-service.ts';
import { completeJudoOrderPayment, createJudoPaymentSession } from './service.ts';

const judo = startFakeJudopay([judoAccount]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

type Cards = { showVisa: boolean; showAmex: boolean; showMastercard: boolean };

describeApi(
  'checkout: the Visa, Amex and Mastercard toggles',
  (t) => {
    const asPatient = (estate: { businessId: string; patientId: string }) =>
      patientActor(estate) as Extract<Actor, { kind: 'patient' }>;

    /** Switches the business's card toggles through the API, as staff would. */
    const setCards = async (businessId: string, cards: Cards) => {
      const res = await t.call(
        'paymentSettings',
        'updatePaymentSettings',
        {
          businessId,
          contactNumber: '0121 496 0000',
          legalInfo: 'High St Pharmacy Ltd',
          provider: 'judo',
          judo: { id: JUDO_ID, sandbox: true, ...judoAccount, ...cards },
        },
        asSupport,
      );
      expect(res.status).toBe(200);
    };

    it('lists the accepted schemes on the patient’s order, and offers no card payment with all switched off', async () => {
      const estate = await chargingBusiness(t, { cards: { showAmex: false } });
      const orderId = await chargedOrder(t, estate);
      expect(await getPatientOrder(t.deps, asPatient(estate), { orderId })).toMatchObject({
        cardPayments: true,
        acceptedCards: ['visa', 'mastercard'],
      });
      await setCards(estate.businessId, { showVisa: false, showAmex: false, showMastercard: false });
      expect(await getPatientOrder(t.deps, asPatient(estate), { orderId })).toMatchObject({
        cardPayments: false,
        acceptedCards: [],
      });
      expect(await refusal(createJudoPaymentSession(t.deps, patientActor(estate), { orderId }))).toMatchObject({
        code: 'CONFLICT',
        message: 'This pharmacy does not take card payments',
      });
      expect(judo.requests).toHaveLength(0);
    });

    it('refuses an Amex receipt when Amex is off: the order stays unpaid, staff are told to refund it', async () => {
      const estate = await chargingBusiness(t, { cards: { showAmex: false } });
      const orderId = await chargedOrder(t, estate);
      const patient = patientActor(estate);
      const session = await createJudoPaymentSession(t.deps, patient, { orderId });
      const amex = judo.pay(session.yourPaymentReference, 'Success', { card: 'amex' });
      const done = await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: amex.receiptId });
      expect(done).toMatchObject({ outcome: 'declined', changed: true });
      expect(done.order).toMatchObject({ paymentStatus: 'unpaid', amountPaid: 0, paymentId: null });
      expect((await attemptsOf(t, orderId))[0]).toMatchObject({
        status: 'declined',
        receipt_id: amex.receiptId,
        reason: 'American Express cards are not accepted by this pharmacy',
      });
      expect((await eventsOf(t, orderId)).at(-1)).toEqual({
        code: 'PAYMENT_CARD_NOT_ACCEPTED',
        message:
          'Card payment of £11.90 by American Express received, but American Express is switched off in the payment settings: refund it',
      });
      // The same receipt again (the webhook after the browser) changes nothing.
      expect(await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: amex.receiptId })).toMatchObject({
        outcome: 'declined',
        changed: false,
      });
      // Another card settles it.
      const again = await createJudoPaymentSession(t.deps, patient, { orderId });
      const visa = judo.pay(again.yourPaymentReference, 'Success', { card: 'visa' });
      const paid = await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: visa.receiptId });
      expect(paid).toMatchObject({ outcome: 'succeeded', order: { paymentStatus: 'paid', paymentId: visa.receiptId } });
    });

    it('judges the scheme by the toggles when the receipt comes, not when the payment started', async () => {
      const estate = await chargingBusiness(t);
      const orderId = await chargedOrder(t, estate);
      const patient = patientActor(estate);
      const session = await createJudoPaymentSession(t.deps, patient, { orderId });
      await setCards(estate.businessId, { showVisa: true, showAmex: true, showMastercard: false });
      const mastercard = judo.pay(session.yourPaymentReference, 'Success', { card: 'mastercard' });
      const done = await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: mastercard.receiptId });
      expect(done.outcome).toBe('declined');
      expect((await orderRow(t, orderId)).payment_status).toBe('unpaid');
    });

    it('accepts a receipt without card details, and a declined one of a switched-off scheme as declined', async () => {
      const estate = await chargingBusiness(t, { cards: { showAmex: false } });
      const first = await chargedOrder(t, estate);
      const patient = patientActor(estate);
      const s1 = await createJudoPaymentSession(t.deps, patient, { orderId: first });
      const bare = judo.pay(s1.yourPaymentReference, 'Success', { cardDetails: null });
      expect(
        (await completeJudoOrderPayment(t.deps, patient, { orderId: first, receiptId: bare.receiptId })).order,
      ).toMatchObject({ paymentStatus: 'paid' });

      const second = await chargedOrder(t, estate);
      const s2 = await createJudoPaymentSession(t.deps, patient, { orderId: second });
      const declined = judo.pay(s2.yourPaymentReference, 'Declined', { card: 'amex' });
      await completeJudoOrderPayment(t.deps, patient, { orderId: second, receiptId: declined.receiptId });
      expect((await eventsOf(t, second)).at(-1)?.code).toBe('PAYMENT_DECLINED');
    });
  },
  withTestAuth,
  { JUDOPAY_API_URL: judo.url, JUDOPAY_LIVE_API_URL: 'http://127.0.0.1:1' },
);
