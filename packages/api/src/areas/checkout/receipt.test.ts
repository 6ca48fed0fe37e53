// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${pin} is the placeholder a receipt must never hold.
import { afterAll, afterEach, expect, it } from 'bun:test';
import { startFakeJudopay } from '../../payments/fake-judopay.ts';
import { PATIENT_COOKIE } from '../../sessions/patient-sessions.ts';
import { describeApi } from '../../testing/api.ts';
import {
  chargedOrder,
  chargingBusiness,
  eventsOf,
  judoAccount,
  orderRow,
  patientActor,
  webhookAuth,
} from '../../testing/checkout.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { toStoredOrder } from '../orders/mapping-repository.ts';
import { pinOf } from '../orders/pin.ts';
import { declareExemption } from './exemption.ts';
import { completeJudoOrderPayment, createJudoPaymentSession } from './service.ts';

const judo = startFakeJudopay([judoAccount]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

/** 1×1 transparent PNG, as a drawn signature. */
const signature =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describeApi(
  'checkout: the receipt of a paid order',
  (t) => {
    /** A £9.90 + £2.00 order paid by card on the fake Judopay, and its patient signed in by date of birth. */
    async function paidOrder(patient?: NonNullable<Parameters<typeof chargingBusiness>[1]>['patient']) {
      const estate = await chargingBusiness(t, patient ? { patient } : {});
      const orderId = await chargedOrder(t, estate);
      const session = await createJudoPaymentSession(t.deps, patientActor(estate), { orderId });
      const receipt = judo.pay(session.yourPaymentReference, 'Success');
      await completeJudoOrderPayment(t.deps, patientActor(estate), { orderId, receiptId: receipt.receiptId });
      const res = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: '1980-01-02' });
      expect(res.status).toBe(200);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`)) ?? '';
      return { ...estate, orderId, receiptId: receipt.receiptId, as: { cookie: cookie.split(';')[0] as string } };
    }
    const receipts = (orderId: string) =>
      t.db
        .selectFrom('message_outbox')
        .selectAll()
        .where('order_id', '=', orderId)
        .where('template_key', '=', 'orderReceipt')
        .orderBy('created')
        .execute();

    it('emails the receipt to a patient with an address: pharmacy, reference, amount, receipt id, date, no PIN', async () => {
      const { orderId, receiptId, as, businessId } = await paidOrder();
      const res = await t.call('checkout', 'sendReceipt', { orderId }, as);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        channel: 'email',
        sentTo: 'p•••@example.com',
        order: { id: orderId, paymentStatus: 'paid', amountPaid: 1190, receiptSent: true },
      });
      const [mail] = await receipts(orderId);
      const row = await orderRow(t, orderId);
      const pharmacy = await t.db
        .selectFrom('businesses')
        .select('name')
        .where('id', '=', businessId)
        .executeTakeFirstOrThrow();
      expect(mail).toMatchObject({ channel: 'email', recipient: 'patient1@example.com' });
      expect(mail?.subject).toBe(`Your receipt from ${pharmacy.name} (order ${row.reference})`);
      for (const fact of [
        `Receipt from ${pharmacy.name}`,
        `Order reference: ${row.reference}`,
        'Amount paid: £11.90 by card',
        `Card payment receipt: ${receiptId}`,
        'Date: ',
      ]) {
        expect(mail?.body).toContain(fact);
      }
      const pin = pinOf(t.deps.config.secretsKey, toStoredOrder(row)) ?? '';
      expect(pin).toMatch(/^\d{8}$/);
      expect(mail?.body).not.toContain(pin);
      expect(mail?.body).not.toContain('${pin}');
      expect(row.receipt_sent).toBe(true);
      expect((await eventsOf(t, orderId)).at(-1)).toEqual({
        code: 'RECEIPT_SENT',
        message: 'Receipt for £11.90 sent by email to p•••@example.com',
      });
      const view = await t.call('patientOrders', 'get', { orderId }, as);
      expect(view.body.order.receiptSent).toBe(true);
      // The page, read again later, can say where it went.
      expect(view.body.receiptSentTo).toBe('p•••@example.com');
    });

    it('words the receipt in Welsh first, then English, for a bilingual pharmacy’s patient, and in Welsh alone once they chose it', async () => {
      const { orderId, as, businessId } = await paidOrder();
      const set = await t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        { businessId, settings: { nation: 'wales', patientLanguage: 'bilingual' } },
        asSupport,
      );
      expect(set.status).toBe(200);
      expect((await t.call('checkout', 'sendReceipt', { orderId }, as)).status).toBe(200);
      const row = await orderRow(t, orderId);
      const [both] = await receipts(orderId);
      expect(both?.subject).toMatch(
        new RegExp(`^Eich derbynneb gan .+ \\(archeb ${row.reference}\\) / Your receipt from `),
      );
      expect(both?.body).toMatch(
        /^Derbynneb gan [\s\S]+Swm a dalwyd: £11\.90 â cherdyn[\s\S]+\n\nReceipt from [\s\S]+Amount paid: £11\.90/,
      );
      // Welsh month names in the date.
      expect(both?.body).toMatch(
        /Dyddiad: \d\d? (Ionawr|Chwefror|Mawrth|Ebrill|Mai|Mehefin|Gorffennaf|Awst|Medi|Hydref|Tachwedd|Rhagfyr) \d{4} am \d\d:\d\d/,
      );

      expect((await t.call('patientOrders', 'setLanguage', { orderId, language: 'cy' }, as)).status).toBe(200);
      t.advance(61_000);
      expect((await t.call('checkout', 'sendReceipt', { orderId }, as)).status).toBe(200);
      const welsh = (await receipts(orderId)).at(-1);
      expect(welsh?.subject).toMatch(new RegExp(`^Eich derbynneb gan .+ \\(archeb ${row.reference}\\)$`));
      expect(welsh?.body).not.toContain('Receipt from');
    });

    it('texts the receipt to a patient without an email address', async () => {
      const { orderId, receiptId, as } = await paidOrder({ email: undefined });
      const res = await t.call('checkout', 'sendReceipt', { orderId }, as);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ channel: 'sms', sentTo: '07••• •••001' });
      const [sms] = await receipts(orderId);
      expect(sms).toMatchObject({ channel: 'sms', recipient: '+447700900001', subject: null });
      expect(sms?.body).toContain(`£11.90 paid by card on `);
      expect(sms?.body).toContain(`Card receipt ${receiptId}.`);
    });

    it('sends again at most once a minute and five times per order (429 with Retry-After)', async () => {
      const { orderId, as } = await paidOrder();
      expect((await t.call('checkout', 'sendReceipt', { orderId }, as)).status).toBe(200);
      t.advance(20_000);
      const soon = await t.call('checkout', 'sendReceipt', { orderId }, as);
      expect(soon.status).toBe(429);
      expect(soon.headers.get('retry-after')).toBe('40');
      expect(soon.body.error.message).toBe(
        'The receipt was sent a moment ago. Please wait 40 seconds before asking again.',
      );
      for (let n = 2; n <= 5; n++) {
        t.advance(60_000);
        expect((await t.call('checkout', 'sendReceipt', { orderId }, as)).status).toBe(200);
      }
      t.advance(60_000);
      const sixth = await t.call('checkout', 'sendReceipt', { orderId }, as);
      expect(sixth.status).toBe(429);
      expect(sixth.body.error.message).toContain('sent 5 times already');
      expect(await receipts(orderId)).toHaveLength(5);
      expect((await eventsOf(t, orderId)).filter((e) => e.code === 'RECEIPT_SENT')).toHaveLength(5);
    });

    it('lets twelve concurrent asks send one receipt', async () => {
      const { orderId, as } = await paidOrder();
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => t.call('checkout', 'sendReceipt', { orderId }, as)),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(11);
      expect(await receipts(orderId)).toHaveLength(1);
    });

    it('refuses an order that is not paid (409) and changes nothing', async () => {
      const { orderId: _paid, as, ...estate } = await paidOrder();
      const unpaid = await chargedOrder(t, estate);
      const res = await t.call('checkout', 'sendReceipt', { orderId: unpaid }, as);
      expect(res.status).toBe(409);
      expect(res.body.error.details[0]).toMatchObject({ path: 'orderId', id: 'NOT_PAID' });
      const exempt = await chargedOrder(t, estate);
      await declareExemption(t.deps, patientActor(estate), {
        orderId: exempt,
        exemptionCode: 'F',
        nameOfDeclarant: 'Given1 Family1',
        onBehalfOfPatient: false,
        signature,
      });
      expect((await t.call('checkout', 'sendReceipt', { orderId: exempt }, as)).status).toBe(409);
      const free = await chargedOrder(t, estate, {});
      expect((await t.call('checkout', 'sendReceipt', { orderId: free }, as)).status).toBe(409);
      for (const id of [unpaid, exempt, free]) expect((await orderRow(t, id)).receipt_sent).toBe(false);
      expect(await receipts(unpaid)).toHaveLength(0);
    });

    it('lets staff send a patient their receipt; another patient’s order is 404', async () => {
      const first = await paidOrder();
      const staff = await t.call('checkout', 'sendReceipt', { orderId: first.orderId }, asSupport);
      expect(staff.status).toBe(200);
      expect((await eventsOf(t, first.orderId)).at(-1)?.code).toBe('RECEIPT_SENT');
      const second = await paidOrder();
      expect((await t.call('checkout', 'sendReceipt', { orderId: second.orderId }, first.as)).status).toBe(404);
      expect(await receipts(second.orderId)).toHaveLength(0);
    });

    it('refuses when the patient has no email address or mobile (409)', async () => {
      const { orderId, as } = await paidOrder();
      await t.db
        .updateTable('patients')
        .set({ email: null, mobile_number: null })
        .where('id', '=', (await orderRow(t, orderId)).patient_id)
        .execute();
      const res = await t.call('checkout', 'sendReceipt', { orderId }, as);
      expect(res.status).toBe(409);
      expect(res.body.error.details[0].id).toBe('NO_CONTACT');
      expect((await orderRow(t, orderId)).receipt_sent).toBe(false);
    });
  },
  withTestAuth,
  {
    JUDOPAY_API_URL: judo.url,
    JUDOPAY_LIVE_API_URL: 'http://127.0.0.1:1',
    JUDOPAY_WEBHOOK_USER: webhookAuth.user,
    JUDOPAY_WEBHOOK_PASSWORD: webhookAuth.password,
  },
);
