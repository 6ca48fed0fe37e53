import { afterAll, afterEach, expect, it } from 'bun:test';
import { sql } from 'kysely';
import type { ConsoleEvent } from '../../live/live.ts';
import { liveOf } from '../../live/live.ts';
import { type FakeReceipt, startFakeJudopay } from '../../payments/fake-judopay.ts';
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
  setState,
  webhookAuth,
} from '../../testing/checkout.ts';
import { listen, withTestAuth } from '../../testing/hub.ts';
import { completeJudoOrderPayment, createJudoPaymentSession } from './service.ts';

const judo = startFakeJudopay([judoAccount]);
afterEach(() => judo.reset());
afterAll(() => judo.stop());

const env = {
  JUDOPAY_API_URL: judo.url,
  // Businesses not in sandbox go to the live address: nothing listens there, which the routing test reads.
  JUDOPAY_LIVE_API_URL: 'http://127.0.0.1:1',
  JUDOPAY_WEBHOOK_USER: webhookAuth.user,
  JUDOPAY_WEBHOOK_PASSWORD: webhookAuth.password,
};

describeApi(
  'checkout: card payments through Judopay',
  (t) => {
    /** A charged order of a card-taking business, its patient, and a payment started for it. */
    async function started(charges?: { prescriptionCharge?: number; retailCharge?: number }) {
      const estate = await chargingBusiness(t);
      const orderId = await chargedOrder(t, estate, charges);
      const patient = patientActor(estate);
      const session = await createJudoPaymentSession(t.deps, patient, { orderId });
      return { estate, orderId, patient, session };
    }
    const pay = (reference: string, result: FakeReceipt['result'] = 'Success', overrides?: Partial<FakeReceipt>) =>
      judo.pay(reference, result, overrides);

    it('starts a payment for the order’s own charges, with the business’s judoId and a fresh reference', async () => {
      const { orderId, session, estate } = await started();
      expect(session).toMatchObject({
        orderId,
        judoId: JUDO_ID,
        amount: 1190,
        currency: 'GBP',
        postUrl: `${judo.url}/v2`,
      });
      expect(session.yourPaymentReference).toMatch(/^ml_[A-Za-z0-9_-]{22}$/);
      expect(JSON.parse(judo.requests[0]?.body ?? '')).toEqual({
        judoId: JUDO_ID,
        amount: 11.9,
        currency: 'GBP',
        yourConsumerReference: estate.patientId,
        yourPaymentReference: session.yourPaymentReference,
      });
      const again = await createJudoPaymentSession(t.deps, patientActor(estate), { orderId });
      expect(again.yourPaymentReference).not.toBe(session.yourPaymentReference);
      const attempts = await attemptsOf(t, orderId);
      expect(attempts.map((a) => [a.your_payment_reference, Number(a.amount), a.status, a.judo_reference])).toEqual([
        [session.yourPaymentReference, 1190, 'created', session.reference],
        [again.yourPaymentReference, 1190, 'created', again.reference],
      ]);
      expect((await eventsOf(t, orderId)).map((e) => e.message)).toEqual([
        'Card payment of £11.90 started',
        'Card payment of £11.90 started',
      ]);
    });

    it('charges a prescription-only order its prescription charge', async () => {
      const { session } = await started({ prescriptionCharge: 990 });
      expect(session.amount).toBe(990);
      expect(JSON.parse(judo.requests[0]?.body ?? '').amount).toBe(9.9);
    });

    it('refuses an order with nothing to pay, one not live, and a business without card payments', async () => {
      const estate = await chargingBusiness(t);
      const patient = patientActor(estate);
      const free = await chargedOrder(t, estate, {});
      expect((await refusal(createJudoPaymentSession(t.deps, patient, { orderId: free }))).message).toBe(
        'This order has no charge to pay',
      );
      for (const [status, expiresAt, word] of [
        ['cancelled', null, 'cancelled'],
        ['collected', null, 'collected'],
        ['loaded', t.deps.now() - 1, 'expired'],
      ] as const) {
        const orderId = await chargedOrder(t, estate);
        await setState(t, orderId, status, expiresAt);
        const error = await refusal(createJudoPaymentSession(t.deps, patient, { orderId }));
        expect(error).toMatchObject({
          code: 'CONFLICT',
          message: `This order is ${word}: its charge can no longer be settled`,
        });
      }
      const loaded = await chargedOrder(t, estate);
      await setState(t, loaded, 'loaded', t.deps.now() + 60_000);
      expect((await createJudoPaymentSession(t.deps, patient, { orderId: loaded })).amount).toBe(1190);

      const noCards = await chargingBusiness(t, { judo: false });
      const orderId = await chargedOrder(t, noCards);
      expect((await refusal(createJudoPaymentSession(t.deps, patientActor(noCards), { orderId }))).message).toBe(
        'This pharmacy does not take card payments',
      );
      expect(judo.requests.filter((r) => r.path === '/webpayments/payments')).toHaveLength(1);
    });

    it('answers 404 to a patient on another patient’s order, as for a missing one', async () => {
      const { orderId, estate } = await started();
      const stranger = patientActor({ businessId: estate.businessId, patientId: 'someone-else' });
      expect(await refusal(createJudoPaymentSession(t.deps, stranger, { orderId }))).toMatchObject({
        code: 'NOT_FOUND',
        message: `No order with id ${orderId}`,
      });
      expect((await refusal(createJudoPaymentSession(t.deps, stranger, { orderId: 'nope' }))).code).toBe('NOT_FOUND');
    });

    it('sends a business out of sandbox to the live address, and says payments are unavailable when Judopay is down', async () => {
      const estate = await chargingBusiness(t, { sandbox: false });
      const orderId = await chargedOrder(t, estate);
      const error = await refusal(createJudoPaymentSession(t.deps, patientActor(estate), { orderId }));
      expect(error).toMatchObject({ code: 'UNAVAILABLE' });
      expect(judo.requests).toHaveLength(0);
      const [attempt] = await attemptsOf(t, orderId);
      expect(attempt?.status).toBe('error');
      expect(attempt?.reason).toStartWith('Not started: no answer');
    });

    it('makes the order paid on a confirmed success, with the receipt, the timeline and a live push', async () => {
      const { orderId, patient, session } = await started();
      const pushes: ConsoleEvent[] = [];
      const off = liveOf(t.deps).onConsoleEvent((e) => pushes.push(e));
      const receipt = pay(session.yourPaymentReference);
      const done = await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: receipt.receiptId });
      off();
      expect(done).toMatchObject({ outcome: 'succeeded', changed: true });
      expect(done.order).toMatchObject({ paymentStatus: 'paid', amountPaid: 1190, paymentId: receipt.receiptId });
      expect(judo.requests.at(-1)?.path).toBe(`/transactions/${receipt.receiptId}`);
      const [attempt] = await attemptsOf(t, orderId);
      expect(attempt).toMatchObject({ status: 'succeeded', receipt_id: receipt.receiptId, reason: null });
      expect((await eventsOf(t, orderId)).map((e) => e.code)).toEqual(['PAYMENT_STARTED', 'PAYMENT_SUCCEEDED']);
      expect((await eventsOf(t, orderId))[1]?.message).toBe('Paid £11.90 by card');
      expect(pushes.map((p) => p.message)).toContainEqual(
        expect.objectContaining({ action: 'statusUpdate', params: expect.objectContaining({ orderId }) }),
      );
      // Paid: nothing more to start.
      expect((await refusal(createJudoPaymentSession(t.deps, patient, { orderId }))).message).toBe(
        'This order is paid already',
      );
    });

    it('leaves the order unpaid on a decline or an error, with the reason, and lets the patient try again', async () => {
      const { orderId, patient, session } = await started();
      const declined = pay(session.yourPaymentReference, 'Declined');
      const first = await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: declined.receiptId });
      expect(first).toMatchObject({
        outcome: 'declined',
        changed: true,
        order: { paymentStatus: 'unpaid', amountPaid: 0 },
      });
      expect((await attemptsOf(t, orderId))[0]).toMatchObject({ status: 'declined', reason: 'Card declined' });

      const retry = await createJudoPaymentSession(t.deps, patient, { orderId });
      const failed = pay(retry.yourPaymentReference, 'Error');
      const second = await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: failed.receiptId });
      expect(second).toMatchObject({ outcome: 'error', order: { paymentStatus: 'unpaid' } });

      const last = await createJudoPaymentSession(t.deps, patient, { orderId });
      const paid = pay(last.yourPaymentReference);
      expect(
        (await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: paid.receiptId })).order,
      ).toMatchObject({ paymentStatus: 'paid', paymentId: paid.receiptId });
      expect((await eventsOf(t, orderId)).map((e) => e.message)).toEqual([
        'Card payment of £11.90 started',
        'Card payment of £11.90 declined: Card declined',
        'Card payment of £11.90 started',
        'Card payment of £11.90 failed: Gateway error: the card issuer did not answer',
        'Card payment of £11.90 started',
        'Paid £11.90 by card',
      ]);
    });

    it('refuses a receipt whose amount, currency, judoId, reference or result does not match, changing nothing', async () => {
      const { orderId, patient, session } = await started();
      const cases: [Partial<FakeReceipt>, string, string][] = [
        [{ amount: 0.01 }, 'RECEIPT_MISMATCH', 'amount'],
        [{ currency: 'EUR' }, 'RECEIPT_MISMATCH', 'currency'],
        [{ judoId: 999999999 }, 'RECEIPT_MISMATCH', 'judoId'],
        [{ yourPaymentReference: 'ml_forgedreferenceforged' }, 'RECEIPT_OTHER_ORDER', 'Unknown payment reference'],
        [{ result: 'Pending' as FakeReceipt['result'] }, 'RECEIPT_MISMATCH', 'result'],
        [{ type: 'Refund' }, 'RECEIPT_MISMATCH', 'type'],
      ];
      for (const [overrides, id, what] of cases) {
        const receipt = pay(session.yourPaymentReference, 'Success', overrides);
        const error = await refusal(
          completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: receipt.receiptId }),
        );
        expect(error.code).toBe('CONFLICT');
        expect(error.details).toEqual([expect.objectContaining({ path: 'receiptId', id, message: what })]);
      }
      expect(await orderRow(t, orderId)).toMatchObject({ payment_status: 'unpaid', payment_id: null });
      expect((await attemptsOf(t, orderId))[0]).toMatchObject({ status: 'created', receipt_id: null });
      expect((await eventsOf(t, orderId)).map((e) => e.code)).toEqual(['PAYMENT_STARTED']);
      // A receipt Judopay does not have.
      expect((await refusal(completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: '42' }))).code).toBe(
        'NOT_FOUND',
      );
      // The string amount Judopay's webhooks use is the same amount.
      const same = pay(session.yourPaymentReference, 'Success', { amount: '11.90' });
      expect((await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: same.receiptId })).outcome).toBe(
        'succeeded',
      );
    });

    it('handles the same receipt twice, or twice at once, once', async () => {
      const { orderId, patient, session } = await started();
      const receipt = pay(session.yourPaymentReference);
      const input = { orderId, receiptId: receipt.receiptId };
      const both = await Promise.all([
        completeJudoOrderPayment(t.deps, patient, input),
        completeJudoOrderPayment(t.deps, patient, input),
      ]);
      expect(both.map((d) => d.changed).sort()).toEqual([false, true]);
      const again = await completeJudoOrderPayment(t.deps, patient, input);
      expect(again).toMatchObject({ changed: false, outcome: 'succeeded', order: { paymentStatus: 'paid' } });
      const row = await orderRow(t, orderId);
      expect(row).toMatchObject({ payment_status: 'paid', payment_id: receipt.receiptId });
      expect(Number(row.amount_paid)).toBe(1190);
      expect((await eventsOf(t, orderId)).map((e) => e.code)).toEqual(['PAYMENT_STARTED', 'PAYMENT_SUCCEEDED']);
      // A decline replayed after the success changes nothing either.
      const late = pay(session.yourPaymentReference, 'Declined');
      expect(await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: late.receiptId })).toMatchObject({
        changed: false,
        outcome: 'succeeded',
      });
    });

    it('records money that arrives for an order settled meanwhile, leaving the order as it is, for staff to refund', async () => {
      const { orderId, patient, session } = await started();
      await t.db
        .updateTable('orders')
        .set({ payment_status: 'exemption_declared', exemption_code: 'F' })
        .where('id', '=', orderId)
        .execute();
      const receipt = pay(session.yourPaymentReference);
      const done = await completeJudoOrderPayment(t.deps, patient, { orderId, receiptId: receipt.receiptId });
      expect(done).toMatchObject({
        outcome: 'succeeded',
        changed: true,
        order: { paymentStatus: 'exemption_declared' },
      });
      expect((await attemptsOf(t, orderId))[0]).toMatchObject({ status: 'succeeded', receipt_id: receipt.receiptId });
      expect((await eventsOf(t, orderId)).at(-1)).toEqual({
        code: 'PAYMENT_NOT_NEEDED',
        message: 'Card payment of £11.90 received for an order already settled (exemption_declared): refund it',
      });
    });

    it.if(t.kind === 'postgres')('settles once when two completions read the attempt at the same moment', async () => {
      const { orderId, patient, session } = await started();
      const receipt = pay(session.yourPaymentReference);
      // Another session holds the attempt's row until both completions wait on it: they then go on
      // together, which without the completion's own row lock would settle the payment twice.
      let release = () => {};
      let holding = () => {};
      const held = new Promise<void>((r) => {
        holding = r;
      });
      const holder = t.db.transaction().execute(async (tx) => {
        await tx.selectFrom('payment_attempts').select('id').where('order_id', '=', orderId).forUpdate().execute();
        holding();
        await new Promise<void>((r) => {
          release = r;
        });
      });
      await held;
      const input = { orderId, receiptId: receipt.receiptId };
      const both = Promise.all([
        completeJudoOrderPayment(t.deps, patient, input),
        completeJudoOrderPayment(t.deps, patient, input),
      ]);
      const waiting = async () =>
        Number(
          (
            await sql<{ n: string }>`select count(*) as n from pg_locks where not granted and pid in
              (select pid from pg_stat_activity where datname = current_database())`.execute(t.db)
          ).rows[0]?.n,
        );
      while ((await waiting()) < 2) await Bun.sleep(10);
      release();
      await holder;
      expect((await both).map((d) => d.changed).sort()).toEqual([false, true]);
      expect((await eventsOf(t, orderId)).map((e) => e.code)).toEqual(['PAYMENT_STARTED', 'PAYMENT_SUCCEEDED']);
    });

    it('refuses another order’s receipt, before and after that order used it', async () => {
      const a = await started();
      const b = await createJudoPaymentSession(t.deps, a.patient, { orderId: await chargedOrder(t, a.estate) });
      const receipt = pay(a.session.yourPaymentReference);
      const borrowed = await refusal(
        completeJudoOrderPayment(t.deps, a.patient, { orderId: b.orderId, receiptId: receipt.receiptId }),
      );
      expect(borrowed).toMatchObject({ code: 'CONFLICT', message: 'This receipt belongs to another order' });
      await completeJudoOrderPayment(t.deps, a.patient, { orderId: a.orderId, receiptId: receipt.receiptId });
      const replayed = await refusal(
        completeJudoOrderPayment(t.deps, a.patient, { orderId: b.orderId, receiptId: receipt.receiptId }),
      );
      expect(replayed.message).toBe('This receipt belongs to another order');
      expect(await orderRow(t, b.orderId)).toMatchObject({ payment_status: 'unpaid', payment_id: null });
      expect((await eventsOf(t, b.orderId)).map((e) => e.code)).toEqual(['PAYMENT_STARTED']);
    });

    it('completes a payment from Judopay’s webhook (Basic auth, receipt in form field content)', async () => {
      const { orderId, session } = await started();
      const server = listen(t);
      try {
        const hook = `${server.http}/hooks/judopay`;
        const receipt = pay(session.yourPaymentReference);
        for (const auth of [null, { ...webhookAuth, password: 'wrong-password' }, { ...webhookAuth, user: 'other' }]) {
          expect((await judo.sendWebhook(hook, receipt, auth)).status).toBe(401);
        }
        expect((await orderRow(t, orderId)).payment_status).toBe('unpaid');
        expect((await judo.sendWebhook(hook, '{not json', webhookAuth)).status).toBe(400);
        expect((await judo.sendWebhook(hook, { ...receipt, receiptId: '' }, webhookAuth)).status).toBe(400);

        const done = await judo.sendWebhook(hook, receipt, webhookAuth);
        expect(done).toEqual({ status: 200, body: JSON.stringify({ outcome: 'succeeded', changed: true }) });
        expect(await orderRow(t, orderId)).toMatchObject({ payment_status: 'paid', payment_id: receipt.receiptId });
        const replay = await judo.sendWebhook(hook, receipt, webhookAuth);
        expect(JSON.parse(replay.body)).toEqual({ outcome: 'succeeded', changed: false });

        const unknown = await judo.sendWebhook(hook, { ...receipt, yourPaymentReference: 'ml_not_ours' }, webhookAuth);
        expect(unknown).toEqual({ status: 200, body: JSON.stringify({ outcome: 'unknown' }) });
        // The webhook's own copy is not trusted: a tampered amount is read back from Judopay, which says otherwise.
        const other = await started();
        const cheap = pay(other.session.yourPaymentReference, 'Success', { amount: 0.01 });
        const refused = await judo.sendWebhook(hook, { ...cheap, amount: 11.9 }, webhookAuth);
        expect(refused.status).toBe(200);
        expect(JSON.parse(refused.body)).toMatchObject({ outcome: 'refused' });
        expect((await orderRow(t, other.orderId)).payment_status).toBe('unpaid');

        // Judopay down while the receipt is confirmed: 503, so Judopay sends it again; then it pays.
        const real = pay(other.session.yourPaymentReference);
        judo.failNext(503, 'Service Unavailable');
        expect((await judo.sendWebhook(hook, real, webhookAuth)).status).toBe(503);
        expect((await orderRow(t, other.orderId)).payment_status).toBe('unpaid');
        // Sent as multipart form data this time.
        const form = new FormData();
        form.set('content', JSON.stringify(real));
        const basic = `Basic ${Buffer.from(`${webhookAuth.user}:${webhookAuth.password}`).toString('base64')}`;
        const multipart = await fetch(hook, { method: 'POST', headers: { authorization: basic }, body: form });
        expect(multipart.status).toBe(200);
        expect((await orderRow(t, other.orderId)).payment_status).toBe('paid');
      } finally {
        server.stop();
      }
    });
  },
  withTestAuth,
  env,
);
