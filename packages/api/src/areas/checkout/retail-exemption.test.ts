import { afterAll, afterEach, expect, it } from 'bun:test';
import { startFakeJudopay } from '../../payments/fake-judopay.ts';
import { describeApi } from '../../testing/api.ts';
import { dataUrl, pngBytes } from '../../testing/businesses.ts';
import {
  attemptsOf,
  chargedOrder,
  chargingBusiness,
  eventsOf,
  judoAccount,
  orderRow,
  patientActor,
  refusal,
} from '../../testing/checkout.ts';
import { withTestAuth } from '../../testing/hub.ts';
import { toOrder, toStoredOrder } from '../orders/mapping-repository.ts';
import { patientSummaryOf } from '../patient-orders/patient-service.ts';
import { declareExemption } from './exemption.ts';
import { sendReceipt } from './receipt.ts';
import { completeJudoOrderPayment, createJudoPaymentSession } from './service.ts';

/*
 * An exemption waives the NHS prescription charge only (docs/decisions/checkout.md, "An exemption covers the
 * prescription charge only"): on an order with a retail charge too, the declaration is recorded and the
 * order stays unpaid for the retail charge, which a card payment then settles.
 */

const judo = startFakeJudopay([judoAccount]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

const signature = dataUrl('image/png', pngBytes(2048));

describeApi(
  'checkout: an exemption on an order with a retail charge too',
  (t) => {
    /** A £9.90 prescription + £2.00 retail order of a card-taking business, and its patient. */
    async function both() {
      const estate = await chargingBusiness(t);
      const orderId = await chargedOrder(t, estate, { prescriptionCharge: 990, retailCharge: 200 });
      return { estate, orderId, patient: patientActor(estate) };
    }
    const declaration = (orderId: string, exemptionCode: 'F' | 'E' = 'F') => ({
      orderId,
      exemptionCode,
      nameOfDeclarant: 'Sam Patient',
      onBehalfOfPatient: false,
      signature,
    });
    const summary = async (orderId: string) =>
      patientSummaryOf(toOrder(toStoredOrder(await orderRow(t, orderId))), t.deps.now());

    it('records the declaration and leaves the order unpaid for the retail charge alone', async () => {
      const { orderId, patient } = await both();
      const { order } = await declareExemption(t.deps, patient, declaration(orderId));
      expect(order).toMatchObject({
        paymentStatus: 'unpaid',
        exemptionCode: 'F',
        exemptionDetails: { nameOfDeclarant: 'Sam Patient', onBehalfOfPatient: false, signature },
        amountPaid: 0,
      });
      expect(await summary(orderId)).toMatchObject({
        paymentStatus: 'unpaid',
        paymentRequired: true,
        amountDue: 200,
        exemptionCode: 'F',
      });
      expect(await eventsOf(t, orderId)).toEqual([
        {
          code: 'EXEMPTION_DECLARED',
          message:
            'Exemption F (prescription prepayment certificate) declared by Sam Patient; the retail charge of £2.00 is still to pay',
        },
      ]);
      // One declaration is enough: a second is refused and changes nothing.
      const again = await refusal(declareExemption(t.deps, patient, declaration(orderId, 'E')));
      expect(again).toMatchObject({
        code: 'CONFLICT',
        message: 'An exemption has been declared for this order already',
      });
      expect(again.details?.[0]).toMatchObject({ path: 'orderId', id: 'EXEMPTION_DECLARED' });
      expect((await orderRow(t, orderId)).exemption_code).toBe('F');
    });

    it('then takes the retail charge by card: the order is paid, and the exemption stays recorded', async () => {
      const { orderId, patient } = await both();
      await declareExemption(t.deps, patient, declaration(orderId));
      const session = await createJudoPaymentSession(t.deps, patient, { orderId });
      expect(session.amount).toBe(200);
      expect(JSON.parse(judo.requests.at(-1)?.body ?? '').amount).toBe(2);

      const receipt = judo.pay(session.yourPaymentReference, 'Success');
      const done = await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: receipt.receiptId });
      expect(done).toMatchObject({
        outcome: 'succeeded',
        changed: true,
        order: { paymentStatus: 'paid', amountPaid: 200, paymentId: receipt.receiptId, exemptionCode: 'F' },
      });
      expect(await summary(orderId)).toMatchObject({ paymentRequired: false, amountDue: 0, exemptionCode: 'F' });
      expect((await eventsOf(t, orderId)).map((e) => e.message)).toEqual([
        'Exemption F (prescription prepayment certificate) declared by Sam Patient; the retail charge of £2.00 is still to pay',
        'Card payment of £2.00 started',
        'Paid £2.00 by card',
      ]);
      // Nothing left: neither another payment nor another declaration.
      expect((await refusal(createJudoPaymentSession(t.deps, patient, { orderId }))).message).toBe(
        'This order is paid already',
      );
      expect((await refusal(declareExemption(t.deps, patient, declaration(orderId, 'E')))).code).toBe('CONFLICT');

      // The receipt says what the card paid, and that the prescription charge was not charged.
      const sent = await sendReceipt(t.deps, patient, { orderId });
      expect(sent.channel).toBe('email');
      const mail = await t.db
        .selectFrom('message_outbox')
        .select('body')
        .where('order_id', '=', orderId)
        .where('template_key', '=', 'orderReceipt')
        .executeTakeFirstOrThrow();
      expect(mail.body).toContain('Amount paid: £2.00 by card');
      expect(mail.body).toContain('NHS prescription charge: not charged (exemption F declared)');
    });

    it('refuses a receipt for the full amount against the retail-only payment (a tampered amount)', async () => {
      const { orderId, patient } = await both();
      await declareExemption(t.deps, patient, declaration(orderId));
      const session = await createJudoPaymentSession(t.deps, patient, { orderId });
      for (const amount of [11.9, 0.01]) {
        const receipt = judo.pay(session.yourPaymentReference, 'Success', { amount });
        const error = await refusal(
          completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: receipt.receiptId }),
        );
        expect(error.details).toEqual([expect.objectContaining({ id: 'RECEIPT_MISMATCH', message: 'amount' })]);
      }
      expect(await orderRow(t, orderId)).toMatchObject({ payment_status: 'unpaid', payment_id: null, amount_paid: 0 });
      expect(await summary(orderId)).toMatchObject({ paymentRequired: true, amountDue: 200 });
    });

    it('a payment of both charges started before the declaration still settles the order, and staff refund the difference', async () => {
      const { orderId, patient } = await both();
      const session = await createJudoPaymentSession(t.deps, patient, { orderId });
      expect(session.amount).toBe(1190);
      await declareExemption(t.deps, patient, declaration(orderId));
      const receipt = judo.pay(session.yourPaymentReference, 'Success');
      const done = await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: receipt.receiptId });
      expect(done.order).toMatchObject({ paymentStatus: 'paid', amountPaid: 1190, exemptionCode: 'F' });
      expect((await eventsOf(t, orderId)).slice(-2)).toEqual([
        { code: 'PAYMENT_SUCCEEDED', message: 'Paid £11.90 by card' },
        {
          code: 'PAYMENT_OVERPAID',
          message: 'Card payment of £11.90 started before exemption F was declared: only £2.00 was owed, refund £9.90',
        },
      ]);
      expect((await attemptsOf(t, orderId))[0]).toMatchObject({ status: 'succeeded', receipt_id: receipt.receiptId });
    });

    it('a declaration on a prescription-only order still settles it, with nothing left to pay', async () => {
      const { estate, patient } = await both();
      const orderId = await chargedOrder(t, estate, { prescriptionCharge: 990 });
      const { order } = await declareExemption(t.deps, patient, declaration(orderId));
      expect(order.paymentStatus).toBe('exemption_declared');
      expect(await summary(orderId)).toMatchObject({ paymentRequired: false, amountDue: 0 });
      expect((await refusal(createJudoPaymentSession(t.deps, patient, { orderId }))).message).toBe(
        'An exemption has been declared for this order: there is nothing to pay',
      );
    });
  },
  withTestAuth,
  {
    JUDOPAY_API_URL: judo.url,
    JUDOPAY_LIVE_API_URL: 'http://127.0.0.1:1',
  },
);
