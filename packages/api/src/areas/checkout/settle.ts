import { type CardScheme, cardSchemeNames, formatPence, type Order } from '@medlocker/core';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { emitOrderEvent } from '../../delivery/webhooks/emit.ts';
import type { JudoReceipt } from '../../payments/judopay.ts';
import { auditOrder, eventRow, insertOrderEventRows, type StoredOrder, toOrder } from '../orders/index.ts';
import type { PaymentOutcome } from './judo.ts';
import { completePaymentAttempt, type Db, lockOrder, type PaymentAttempt, settleOrderPayment } from './repository.ts';
import { amountDue, notFound } from './rules.ts';

/* What a confirmed Judopay receipt does: to its attempt, to the order, and on the order's timeline. */

type TimelineEvent = { code: string; message: string; data: Record<string, unknown> };

/** Records a confirmed receipt on its attempt and, for a success, on the order; with the order's event. */
export async function settle(
  tx: Db,
  deps: AppDeps,
  actor: Actor,
  attempt: PaymentAttempt,
  receipt: JudoReceipt,
  outcome: PaymentOutcome,
): Promise<{ row: StoredOrder }> {
  const now = deps.now();
  const amount = attempt.amount;
  const reason = outcome === 'succeeded' ? null : (receipt.message ?? receipt.result);
  await completePaymentAttempt(tx, attempt.id, { status: outcome, receiptId: receipt.receiptId, reason }, now);
  const current = await lockOrder(tx, attempt.orderId);
  if (!current) throw notFound(attempt.orderId);
  const data = {
    receiptId: receipt.receiptId,
    amount,
    yourPaymentReference: attempt.yourPaymentReference,
    ...(receipt.cardScheme ? { cardScheme: receipt.cardScheme } : {}),
  };
  const { row, events } =
    outcome === 'succeeded'
      ? await settleSuccess(tx, deps, current, receipt, amount, data)
      : {
          row: current,
          events: [
            {
              code: outcome === 'declined' ? 'PAYMENT_DECLINED' : 'PAYMENT_FAILED',
              message: `Card payment of ${formatPence(amount)} ${outcome === 'declined' ? 'declined' : 'failed'}: ${reason}`,
              data: { ...data, reason },
            },
          ],
        };
  await insertOrderEventRows(
    tx,
    events.map((e) => eventRow(deps, actor, row, e.code, e.message, e.data)),
  );
  await auditOrder(tx, deps, actor, 'order.payment', row, { receiptId: receipt.receiptId, result: receipt.result });
  return { row };
}

/**
 * A successful receipt on the order: paid when it covers what the order owes now (a refund of the
 * excess noted), else an event telling staff to refund it. The order as it now is, and its events.
 */
async function settleSuccess(
  tx: Db,
  deps: AppDeps,
  current: StoredOrder,
  receipt: JudoReceipt,
  amount: number,
  data: Record<string, unknown>,
): Promise<{ row: StoredOrder; events: TimelineEvent[] }> {
  // What the order owes now: less than when the payment started if an exemption was declared meanwhile
  // on an order with a retail charge too (the attempt still carries both charges).
  const order = toOrder(current);
  const due = amountDue(order);
  const paid =
    due > 0 && amount >= due
      ? await settleOrderPayment(tx, current.id, {
          payment_status: 'paid',
          amount_paid: amount,
          payment_id: receipt.receiptId,
          updated: deps.now(),
        })
      : undefined;
  if (!paid) return { row: current, events: [refundEvent(deps, order, receipt, amount, due, data)] };
  const events: TimelineEvent[] = [{ code: 'PAYMENT_SUCCEEDED', message: `Paid ${formatPence(amount)} by card`, data }];
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
    events.push({
      code: 'PAYMENT_OVERPAID',
      message: `Card payment of ${formatPence(amount)} started before exemption ${order.exemptionCode} was declared: only ${formatPence(due)} was owed, refund ${formatPence(over)}`,
      data: { ...data, due, refund: over },
    });
  }
  return { row: paid, events };
}

/** Money taken that the order does not owe (too little, or the order settled meanwhile): staff refund it. */
function refundEvent(
  deps: AppDeps,
  current: Order,
  receipt: JudoReceipt,
  amount: number,
  due: number,
  data: Record<string, unknown>,
): TimelineEvent {
  if (current.paymentStatus === 'unpaid') {
    // Less than is owed: cannot happen today (what is owed only shrinks), but never pays an order short.
    deps.logger.warn('a Judopay payment took less than the order owes: refund it', {
      orderId: current.id,
      receiptId: receipt.receiptId,
    });
    return {
      code: 'PAYMENT_NOT_NEEDED',
      message: `Card payment of ${formatPence(amount)} received but ${formatPence(due)} is owed: refund it`,
      data: { ...data, due },
    };
  }
  // Money taken for an order settled meanwhile (another payment, a declaration): staff refund it.
  deps.logger.warn('a Judopay payment arrived for an order settled already: refund it', {
    orderId: current.id,
    receiptId: receipt.receiptId,
    paymentStatus: current.paymentStatus,
  });
  return {
    code: 'PAYMENT_NOT_NEEDED',
    message: `Card payment of ${formatPence(amount)} received for an order already settled (${current.paymentStatus}): refund it`,
    data,
  };
}

/** Records a successful receipt paid with a card scheme the business does not accept: refund it. */
export async function refuseScheme(
  tx: Db,
  deps: AppDeps,
  actor: Actor,
  attempt: PaymentAttempt,
  receipt: JudoReceipt,
  scheme: CardScheme,
): Promise<{ row: StoredOrder; outcome: 'declined' }> {
  const now = deps.now();
  const amount = attempt.amount;
  const name = cardSchemeNames[scheme];
  const reason = `${name} cards are not accepted by this pharmacy`;
  await completePaymentAttempt(tx, attempt.id, { status: 'declined', receiptId: receipt.receiptId, reason }, now);
  const row = await lockOrder(tx, attempt.orderId);
  if (!row) throw notFound(attempt.orderId);
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
        yourPaymentReference: attempt.yourPaymentReference,
      },
    ),
  ]);
  await auditOrder(tx, deps, actor, 'order.payment', row, {
    receiptId: receipt.receiptId,
    result: receipt.result,
    refused: 'cardScheme',
  });
  return { row, outcome: 'declined' };
}
