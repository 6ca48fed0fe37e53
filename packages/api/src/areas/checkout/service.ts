import {
  AppError,
  type CheckoutOrderInput,
  type CompleteJudoPaymentInput,
  checkoutCurrency,
  formatPence,
  type JudoPaymentSession,
  type Order,
} from '@medlocker/core';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { JudopayError, type JudoReceipt } from '../../payments/judopay.ts';
import { eventRow, findOrder, insertOrderEventRows, publishOrder, toOrder } from '../orders/index.ts';
import {
  checkReceipt,
  judoOf,
  newPaymentReference,
  otherOrder,
  outcomeOf,
  type PaymentOutcome,
  unavailable,
} from './judo.ts';
import {
  completePaymentAttempt,
  findAttemptByReceipt,
  findAttemptByReference,
  insertPaymentAttempt,
  updatePaymentAttempt,
} from './repository.ts';
import { amountDue, requireReach, requireUnpaidLiveOrder } from './rules.ts';
import { refuseScheme, settle } from './settle.ts';

/*
 * The checkout of a charged order: a card payment on Judopay's hosted page, and
 * (exemption.ts) an NHS exemption declaration. Not RPC methods yet: the patient session that will call
 * them is another issue's; a patient actor reaches only its own orders here already.
 */

export type SessionOptions = {
  /** Where Judopay's page sends the browser after paying, and after cancelling (else the portal's). */
  successUrl?: string;
  cancelUrl?: string;
};

/**
 * Starts a card payment for an unpaid, charged, live order: the amount is the order's (never the
 * client's), the judoId and credentials the business's, the reference fresh for every attempt. The
 * attempt is stored before Judopay is called, so a webhook for it always finds it.
 */
export async function createJudoPaymentSession(
  deps: AppDeps,
  actor: Actor,
  input: CheckoutOrderInput,
  options: SessionOptions = {},
): Promise<JudoPaymentSession> {
  const row = requireReach(actor, await findOrder(deps.db, input.orderId), input.orderId);
  const order = toOrder(row);
  requireUnpaidLiveOrder(order, deps.now());
  const { judoId, client, accepted } = await judoOf(deps, order.businessId);
  // Every card scheme switched off: nothing could settle the payment.
  if (accepted.length === 0) throw new AppError('CONFLICT', 'This pharmacy does not take card payments');
  const amount = amountDue(order);
  const now = deps.now();
  const attempt = await insertPaymentAttempt(deps.db, {
    id: Bun.randomUUIDv7(),
    business_id: order.businessId,
    order_id: order.id,
    your_payment_reference: newPaymentReference(),
    // The patient's id: opaque, so no personal data travels to Judopay in a free-text field.
    your_consumer_reference: order.patientId,
    amount,
    currency: checkoutCurrency,
    judo_id: judoId,
    status: 'created',
    created: now,
    updated: now,
  });
  let started: { reference: string; postUrl: string };
  try {
    started = await client.createWebPayment({
      judoId,
      amount,
      currency: checkoutCurrency,
      yourConsumerReference: attempt.yourConsumerReference,
      yourPaymentReference: attempt.yourPaymentReference,
      ...options,
    });
  } catch (error) {
    const reason = `Not started: ${error instanceof JudopayError ? error.reason : (error as Error).message}`;
    await completePaymentAttempt(deps.db, attempt.id, { status: 'error', reason }, deps.now());
    throw unavailable(deps, error, { orderId: order.id, attemptId: attempt.id });
  }
  await deps.db.transaction().execute(async (tx) => {
    await updatePaymentAttempt(tx, attempt.id, {
      judo_reference: started.reference,
      post_url: started.postUrl,
      updated: deps.now(),
    });
    await insertOrderEventRows(tx, [
      eventRow(deps, actor, row, 'PAYMENT_STARTED', `Card payment of ${formatPence(amount)} started`, {
        amount,
        yourPaymentReference: attempt.yourPaymentReference,
      }),
    ]);
  });
  return {
    orderId: order.id,
    judoId,
    amount,
    currency: checkoutCurrency,
    yourPaymentReference: attempt.yourPaymentReference,
    reference: started.reference,
    postUrl: started.postUrl,
  };
}

/** How a completion went: the receipt's result, and whether this call changed anything. */
export type PaymentCompletion = {
  order: Order;
  outcome: PaymentOutcome;
  /** false when the receipt had been handled already (or came for an attempt settled before). */
  changed: boolean;
};

/**
 * Confirms a Judopay receipt for an order with Judopay itself (`GET /transactions/{receiptId}`) and
 * settles it: accepted only when Judopay's copy names a payment reference of one of THIS order's
 * attempts, with the attempt's amount, currency and judoId and a known result. Success makes an unpaid
 * order paid (amountPaid, paymentId = receipt id); Declined or Error leave it unpaid with the reason on
 * the attempt and the timeline. The same receipt again changes nothing: the attempt's row lock orders
 * concurrent completions, and the receipt id is unique.
 */
export async function completeJudoOrderPayment(
  deps: AppDeps,
  actor: Actor,
  input: CompleteJudoPaymentInput,
): Promise<PaymentCompletion> {
  const order = requireReach(actor, await findOrder(deps.db, input.orderId), input.orderId);
  const known = await findAttemptByReceipt(deps.db, input.receiptId);
  if (known) {
    if (known.orderId !== order.id) throw otherOrder();
    return { order: toOrder(order), outcome: known.status as PaymentCompletion['outcome'], changed: false };
  }
  const { client, accepted } = await judoOf(deps, toOrder(order).businessId);
  let receipt: JudoReceipt | null;
  try {
    receipt = await client.getTransaction(input.receiptId);
  } catch (error) {
    throw unavailable(deps, error, { orderId: order.id, receiptId: input.receiptId });
  }
  if (!receipt || receipt.receiptId !== input.receiptId) {
    throw new AppError('NOT_FOUND', `Judopay has no receipt ${input.receiptId} for this pharmacy`);
  }
  const found = receipt;

  const settled = await deps.db.transaction().execute(async (tx) => {
    const attempt = await findAttemptByReference(tx, found.yourPaymentReference, true);
    // A receipt of some other payment of the pharmacy's (its reference is none of ours).
    if (!attempt) {
      throw new AppError('CONFLICT', 'This receipt is not for a payment of this order', [
        { path: 'receiptId', id: 'RECEIPT_OTHER_ORDER', message: 'Unknown payment reference' },
      ]);
    }
    checkReceipt(found, attempt, order.id);
    const outcome = outcomeOf[found.result] as PaymentCompletion['outcome'];
    // Handled already (the browser and the webhook at once), an attempt paid already, or a decline
    // after the attempt's first receipt (a replay): no change. Only a success settles a declined attempt.
    const handled = attempt.receiptId !== null && (attempt.status === 'succeeded' || outcome !== 'succeeded');
    if (attempt.receiptId === found.receiptId || handled) {
      if (attempt.receiptId !== found.receiptId && outcome === 'succeeded') {
        deps.logger.warn('a second successful Judopay receipt for one payment: refund one', {
          orderId: order.id,
          receiptId: found.receiptId,
          kept: attempt.receiptId,
        });
      }
      return { row: (await findOrder(tx, order.id)) ?? order, outcome: attempt.status, changed: false };
    }
    // Paid with a scheme the pharmacy switched off (Judopay's account took it): not a payment of the
    // order. The attempt ends declined with the reason, so the patient may pay with another card, and
    // the timeline tells staff to refund it.
    if (outcome === 'succeeded' && found.cardScheme !== null && !accepted.includes(found.cardScheme)) {
      return { ...(await refuseScheme(tx, deps, actor, attempt, found, found.cardScheme)), changed: true };
    }
    return { ...(await settle(tx, deps, actor, attempt, found, outcome)), outcome, changed: true };
  });
  if (settled.changed) publishOrder(deps, settled.row);
  return {
    order: toOrder(settled.row),
    outcome: settled.outcome as PaymentCompletion['outcome'],
    changed: settled.changed,
  };
}

/**
 * A receipt from Judopay's webhook: completed through {@link completeJudoOrderPayment} for the order
 * whose attempt carries its payment reference. null when no attempt of ours does (answered 200, logged).
 */
export async function completeFromWebhook(
  deps: AppDeps,
  actor: Actor,
  receipt: { receiptId: string; yourPaymentReference: string },
): Promise<PaymentCompletion | null> {
  const attempt = await findAttemptByReference(deps.db, receipt.yourPaymentReference);
  if (!attempt) return null;
  return completeJudoOrderPayment(deps, actor, { orderId: attempt.orderId, receiptId: receipt.receiptId });
}
