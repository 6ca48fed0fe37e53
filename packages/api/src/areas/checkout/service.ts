import { randomBytes } from 'node:crypto';
import {
  AppError,
  acceptedCardSchemes,
  type CardScheme,
  type CheckoutOrderInput,
  type CompleteJudoPaymentInput,
  cardSchemeNames,
  checkoutCurrency,
  formatPence,
  type JudoPaymentSession,
  type Order,
  orderAmountDue,
  type PaymentAttemptStatus,
} from '@medlocker/core';
import type { Actor } from '../../actor.ts';
import { audit } from '../../audit/audit.ts';
import { emitOrderEvent } from '../../delivery/webhooks/emit.ts';
import type { AppDeps } from '../../deps.ts';
import { JudopayError, type JudoReceipt, judopayClient, sameJudoId } from '../../payments/judopay.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';
import { eventRow, findOrder, insertOrderEventRows, type OrderRow, publishOrder, toOrder } from '../orders/index.ts';
import { readPaymentSettings } from '../payment-settings/index.ts';
import {
  type Db,
  findAttemptByReceipt,
  findAttemptByReference,
  insertPaymentAttempt,
  lockOrder,
  type PaymentAttemptRow,
  settleOrderPayment,
  updatePaymentAttempt,
} from './repository.ts';

/*
 * The checkout of a charged order (issue 19 groundwork): a card payment on Judopay's hosted page, and
 * (exemption.ts) an NHS exemption declaration. Not RPC methods yet: the patient session that will call
 * them is another issue's; a patient actor reaches only its own orders here already.
 */

const notFound = (id: string) => new AppError('NOT_FOUND', `No order with id ${id}`);

/**
 * Whether the actor may settle this order's payment: the patient whose order it is, staff of its
 * business (support: any), the system (Judopay's webhook). Anyone else gets the same 404 as a missing
 * order, so an id never tells whether another patient's order exists.
 */
export function requireReach(actor: Actor, order: OrderRow | undefined, id: string): OrderRow {
  if (!order) throw notFound(id);
  const ok =
    actor.kind === 'support' ||
    actor.kind === 'system' ||
    (actor.kind === 'pharmacy' && actor.businesses.has(order.business_id)) ||
    (actor.kind === 'patient' && actor.patientId === order.patient_id && actor.businessId === order.business_id);
  if (!ok) throw notFound(id);
  return order;
}

type ChargesRow = Pick<OrderRow, 'payment_status' | 'prescription_charge' | 'retail_charge' | 'exemption_code'>;

/**
 * What the patient still owes for an order, in pence (core's orderAmountDue): its retail charge, plus
 * its prescription charge unless an exemption has been declared; nothing once settled.
 */
export const amountDue = (order: ChargesRow): number =>
  orderAmountDue({
    paymentStatus: order.payment_status,
    prescriptionCharge: Number(order.prescription_charge),
    retailCharge: Number(order.retail_charge),
    exemptionCode: order.exemption_code,
  });

/**
 * Refuses (409) an order whose charge cannot be settled now: one that is not live (collected, removed,
 * cancelled, or loaded past its expiry), one without a charge, one already paid or declared exempt (and,
 * with an exemption declared, nothing else left to pay).
 */
export function requireUnpaidLiveOrder(order: OrderRow, now: number): void {
  const expired = order.status === 'loaded' && order.expires_at !== null && now >= Number(order.expires_at);
  if (!(order.status === 'new' || order.status === 'loaded') || expired) {
    const state = expired ? 'expired' : order.status;
    throw new AppError('CONFLICT', `This order is ${state}: its charge can no longer be settled`, [
      { path: 'orderId', id: 'INVALID_TRANSITION', message: state },
    ]);
  }
  const charged = Number(order.prescription_charge) + Number(order.retail_charge);
  if (order.payment_status === 'not_required' || charged <= 0) {
    throw new AppError('CONFLICT', 'This order has no charge to pay');
  }
  if (order.payment_status === 'paid') throw new AppError('CONFLICT', 'This order is paid already');
  if (order.payment_status === 'exemption_declared' || amountDue(order) <= 0) {
    throw new AppError('CONFLICT', 'An exemption has been declared for this order: there is nothing to pay');
  }
}

/** The business's Judopay id and a client on its credentials (its sandbox or the live API). */
async function judoOf(deps: AppDeps, businessId: string) {
  const settings = await readPaymentSettings(deps.db, createSecretBox(deps.config.secretsKey), businessId);
  const judo = settings?.provider === 'judo' ? settings.judo : null;
  if (!judo?.id || !judo.token || !judo.secret) {
    throw new AppError('CONFLICT', 'This pharmacy does not take card payments');
  }
  const apiUrl = judo.sandbox ? deps.config.judopay.apiUrl : deps.config.judopay.liveApiUrl;
  return {
    judoId: judo.id,
    client: judopayClient({ apiUrl, token: judo.token, secret: judo.secret }),
    /** The schemes the business's toggles accept now (Visa, Mastercard, Amex). */
    accepted: acceptedCardSchemes(judo),
  };
}

/** Judopay could not be reached or refused: the patient may try again; the reason goes to the log only. */
function unavailable(deps: AppDeps, error: unknown, context: Record<string, unknown>): AppError {
  const reason = error instanceof JudopayError ? error.reason : (error as Error).message;
  deps.logger.warn('Judopay call failed', { ...context, reason, httpStatus: (error as JudopayError).httpStatus });
  return new AppError('UNAVAILABLE', 'Card payments are not available right now: please try again in a few minutes');
}

/** Our payment reference: 128 random bits (unguessable, never reused: Judopay refuses a repeat). */
const newPaymentReference = () => `ml_${randomBytes(16).toString('base64url')}`;

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
  const order = requireReach(actor, await findOrder(deps.db, input.orderId), input.orderId);
  requireUnpaidLiveOrder(order, deps.now());
  const { judoId, client, accepted } = await judoOf(deps, order.business_id);
  // Every card scheme switched off: nothing could settle the payment.
  if (accepted.length === 0) throw new AppError('CONFLICT', 'This pharmacy does not take card payments');
  const amount = amountDue(order);
  const now = deps.now();
  const attempt = await insertPaymentAttempt(deps.db, {
    id: Bun.randomUUIDv7(),
    business_id: order.business_id,
    order_id: order.id,
    your_payment_reference: newPaymentReference(),
    // The patient's id: opaque, so no personal data travels to Judopay in a free-text field.
    your_consumer_reference: order.patient_id,
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
      yourConsumerReference: attempt.your_consumer_reference,
      yourPaymentReference: attempt.your_payment_reference,
      ...options,
    });
  } catch (error) {
    await updatePaymentAttempt(deps.db, attempt.id, {
      status: 'error',
      reason: `Not started: ${error instanceof JudopayError ? error.reason : (error as Error).message}`,
      updated: deps.now(),
      completed_at: deps.now(),
    });
    throw unavailable(deps, error, { orderId: order.id, attemptId: attempt.id });
  }
  await deps.db.transaction().execute(async (tx) => {
    await updatePaymentAttempt(tx, attempt.id, {
      judo_reference: started.reference,
      post_url: started.postUrl,
      updated: deps.now(),
    });
    await insertOrderEventRows(tx, [
      eventRow(deps, actor, order, 'PAYMENT_STARTED', `Card payment of ${formatPence(amount)} started`, {
        amount,
        yourPaymentReference: attempt.your_payment_reference,
      }),
    ]);
  });
  return {
    orderId: order.id,
    judoId,
    amount,
    currency: checkoutCurrency,
    yourPaymentReference: attempt.your_payment_reference,
    reference: started.reference,
    postUrl: started.postUrl,
  };
}

/** How a completion went: the receipt's result, and whether this call changed anything. */
export type PaymentCompletion = {
  order: Order;
  outcome: Exclude<PaymentAttemptStatus, 'created'>;
  /** false when the receipt had been handled already (or came for an attempt settled before). */
  changed: boolean;
};

const outcomeOf: Record<string, Exclude<PaymentAttemptStatus, 'created'> | undefined> = {
  Success: 'succeeded',
  Declined: 'declined',
  Error: 'error',
};

const mismatch = (what: string) =>
  new AppError('CONFLICT', `This receipt does not match the payment started for this order (${what})`, [
    { path: 'receiptId', id: 'RECEIPT_MISMATCH', message: what },
  ]);

const otherOrder = () =>
  new AppError('CONFLICT', 'This receipt belongs to another order', [
    { path: 'receiptId', id: 'RECEIPT_OTHER_ORDER', message: 'This receipt belongs to another order' },
  ]);

/** Refuses a receipt that does not match its attempt in every field that decides what was paid. */
function checkReceipt(receipt: JudoReceipt, attempt: PaymentAttemptRow, orderId: string): void {
  if (attempt.order_id !== orderId) throw otherOrder();
  if (receipt.type !== null && receipt.type !== 'Payment') throw mismatch('type');
  if (!outcomeOf[receipt.result]) throw mismatch('result');
  if (receipt.amount !== Number(attempt.amount)) throw mismatch('amount');
  if (receipt.currency !== attempt.currency) throw mismatch('currency');
  if (!sameJudoId(receipt.judoId, attempt.judo_id)) throw mismatch('judoId');
}

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
    if (known.order_id !== order.id) throw otherOrder();
    return { order: toOrder(order), outcome: known.status as PaymentCompletion['outcome'], changed: false };
  }
  const { client, accepted } = await judoOf(deps, order.business_id);
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
    const handled = attempt.receipt_id !== null && (attempt.status === 'succeeded' || outcome !== 'succeeded');
    if (attempt.receipt_id === found.receiptId || handled) {
      if (attempt.receipt_id !== found.receiptId && outcome === 'succeeded') {
        deps.logger.warn('a second successful Judopay receipt for one payment: refund one', {
          orderId: order.id,
          receiptId: found.receiptId,
          kept: attempt.receipt_id,
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

type TimelineEvent = { code: string; message: string; data: Record<string, unknown> };

/** Records a confirmed receipt on its attempt and, for a success, on the order; with the order's event. */
async function settle(
  tx: Db,
  deps: AppDeps,
  actor: Actor,
  attempt: PaymentAttemptRow,
  receipt: JudoReceipt,
  outcome: PaymentCompletion['outcome'],
): Promise<{ row: OrderRow }> {
  const now = deps.now();
  const amount = Number(attempt.amount);
  const reason = outcome === 'succeeded' ? null : (receipt.message ?? receipt.result);
  await updatePaymentAttempt(tx, attempt.id, {
    status: outcome,
    receipt_id: receipt.receiptId,
    reason,
    updated: now,
    completed_at: now,
  });
  const current = await lockOrder(tx, attempt.order_id);
  if (!current) throw notFound(attempt.order_id);
  const data = {
    receiptId: receipt.receiptId,
    amount,
    yourPaymentReference: attempt.your_payment_reference,
    ...(receipt.cardScheme ? { cardScheme: receipt.cardScheme } : {}),
  };
  let row = current;
  let event: TimelineEvent;
  /** Events after the main one (a refund to make). */
  const extra: TimelineEvent[] = [];
  if (outcome !== 'succeeded') {
    event = {
      code: outcome === 'declined' ? 'PAYMENT_DECLINED' : 'PAYMENT_FAILED',
      message: `Card payment of ${formatPence(amount)} ${outcome === 'declined' ? 'declined' : 'failed'}: ${reason}`,
      data: { ...data, reason },
    };
  } else {
    // What the order owes now: less than when the payment started if an exemption was declared meanwhile
    // on an order with a retail charge too (the attempt still carries both charges).
    const due = amountDue(current);
    const paid =
      due > 0 && amount >= due
        ? await settleOrderPayment(tx, current.id, {
            payment_status: 'paid',
            amount_paid: amount,
            payment_id: receipt.receiptId,
            updated: now,
          })
        : undefined;
    if (paid) {
      row = paid;
      event = { code: 'PAYMENT_SUCCEEDED', message: `Paid ${formatPence(amount)} by card`, data };
      await emitOrderEvent(tx, deps, 'order.payment_updated', toOrder(paid), {
        change: 'card_payment',
        receiptId: receipt.receiptId,
        amount,
        ...(receipt.cardScheme ? { cardScheme: receipt.cardScheme } : {}),
      });
      if (amount > due) {
        // The money was taken and covers what is owed, so the order is paid (the patient can collect);
        // the part the exemption waived goes back to them.
        const over = amount - due;
        deps.logger.warn('a Judopay payment took more than the order owes: refund the difference', {
          orderId: current.id,
          receiptId: receipt.receiptId,
          refund: over,
        });
        extra.push({
          code: 'PAYMENT_OVERPAID',
          message: `Card payment of ${formatPence(amount)} started before exemption ${current.exemption_code} was declared: only ${formatPence(due)} was owed, refund ${formatPence(over)}`,
          data: { ...data, due, refund: over },
        });
      }
    } else if (current.payment_status === 'unpaid') {
      // Less than is owed: cannot happen today (what is owed only shrinks), but never pays an order short.
      deps.logger.warn('a Judopay payment took less than the order owes: refund it', {
        orderId: current.id,
        receiptId: receipt.receiptId,
      });
      event = {
        code: 'PAYMENT_NOT_NEEDED',
        message: `Card payment of ${formatPence(amount)} received but ${formatPence(due)} is owed: refund it`,
        data: { ...data, due },
      };
    } else {
      // Money taken for an order settled meanwhile (another payment, a declaration): staff refund it.
      deps.logger.warn('a Judopay payment arrived for an order settled already: refund it', {
        orderId: current.id,
        receiptId: receipt.receiptId,
        paymentStatus: current.payment_status,
      });
      event = {
        code: 'PAYMENT_NOT_NEEDED',
        message: `Card payment of ${formatPence(amount)} received for an order already settled (${current.payment_status}): refund it`,
        data,
      };
    }
  }
  await insertOrderEventRows(
    tx,
    [event, ...extra].map((e) => eventRow(deps, actor, row, e.code, e.message, e.data)),
  );
  await audit(tx, deps, actor, {
    action: 'order.payment',
    entityType: 'order',
    entityId: row.id,
    businessId: row.business_id,
    details: { receiptId: receipt.receiptId, result: receipt.result },
  });
  return { row };
}

/** Records a successful receipt paid with a card scheme the business does not accept: refund it. */
async function refuseScheme(
  tx: Db,
  deps: AppDeps,
  actor: Actor,
  attempt: PaymentAttemptRow,
  receipt: JudoReceipt,
  scheme: CardScheme,
): Promise<{ row: OrderRow; outcome: 'declined' }> {
  const now = deps.now();
  const amount = Number(attempt.amount);
  const name = cardSchemeNames[scheme];
  const reason = `${name} cards are not accepted by this pharmacy`;
  await updatePaymentAttempt(tx, attempt.id, {
    status: 'declined',
    receipt_id: receipt.receiptId,
    reason,
    updated: now,
    completed_at: now,
  });
  const row = await lockOrder(tx, attempt.order_id);
  if (!row) throw notFound(attempt.order_id);
  deps.logger.warn('a Judopay payment by a card scheme switched off: refund it', {
    orderId: row.id,
    receiptId: receipt.receiptId,
    cardScheme: scheme,
  });
  await insertOrderEventRows(tx, [
    eventRow(
      deps,
      actor,
      row,
      'PAYMENT_CARD_NOT_ACCEPTED',
      `Card payment of ${formatPence(amount)} by ${name} received, but ${name} is switched off in the payment settings: refund it`,
      {
        receiptId: receipt.receiptId,
        amount,
        cardScheme: scheme,
        yourPaymentReference: attempt.your_payment_reference,
      },
    ),
  ]);
  await audit(tx, deps, actor, {
    action: 'order.payment',
    entityType: 'order',
    entityId: row.id,
    businessId: row.business_id,
    details: { receiptId: receipt.receiptId, result: receipt.result, refused: 'cardScheme' },
  });
  return { row, outcome: 'declined' };
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
  return completeJudoOrderPayment(deps, actor, { orderId: attempt.order_id, receiptId: receipt.receiptId });
}
