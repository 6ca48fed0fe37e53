import {
  AppError,
  type CheckoutOrderInput,
  formatPence,
  messageLocales,
  type Order,
  type ReceiptFacts,
  receiptEmailText,
  receiptPolicy,
  receiptSmsText,
  receiptSubject,
  receiptTemplateKey,
} from '@medlocker/core';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { maskRecipient } from '../../delivery/messages/send.ts';
import { queueMessages } from '../../outbox/index.ts';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import {
  auditOrder,
  eventRow,
  findBusinessForOrder,
  findOrder,
  findPatientContact,
  insertOrderEventRows,
  publishOrder,
  toOrder,
} from '../orders/index.ts';
import { findAttemptByReceipt, lockOrder, markReceiptSent, receiptsSentOf } from './repository.ts';
import { requireReach } from './rules.ts';

/*
 * `checkout/sendReceipt`: the receipt of a paid order, to its patient, through the ordinary
 * message sending (a `message.send` job written with the change). By email when the patient has an
 * address, else by SMS; never WhatsApp (business-initiated WhatsApp needs an approved template, and a
 * receipt is none of them). It is asked for, so the automatic messages' switches (suppressed order
 * messages, an integration partner sending its patients' messages) do not stop it.
 */

export type ReceiptAnswer = { order: Order; channel: 'email' | 'sms'; sentTo: string };

/** 409 unless the order is paid by card: there is nothing else to give a receipt for. */
function requirePaid(order: Order): void {
  if (order.paymentStatus !== 'paid' || !order.paymentId) {
    throw new AppError('CONFLICT', 'This order has not been paid by card: there is no receipt to send', [
      { path: 'orderId', id: 'NOT_PAID', message: 'This order has not been paid by card' },
    ]);
  }
}

/** Where a paid order's receipt goes (the patient's email, else their mobile) and what it says. */
async function readReceipt(deps: AppDeps, found: Order) {
  const patient = await findPatientContact(deps.db, found.patientId);
  const route = patient?.email
    ? { channel: 'email' as const, recipient: patient.email }
    : patient?.mobileNumber
      ? { channel: 'sms' as const, recipient: patient.mobileNumber }
      : null;
  if (!route) {
    throw new AppError('CONFLICT', 'The patient has no email address or mobile number to send the receipt to', [
      { path: 'orderId', id: 'NO_CONTACT', message: 'No email address or mobile number on record' },
    ]);
  }
  const business = await findBusinessForOrder(deps.db, found.businessId);
  const attempt = await findAttemptByReceipt(deps.db, found.paymentId as string);
  const facts: ReceiptFacts = {
    pharmacy: business?.name ?? found.businessName,
    reference: found.reference,
    amount: found.amountPaid,
    receiptId: found.paymentId as string,
    // When Judopay's receipt was settled; an order paid before attempts were kept: its last change.
    paidAt: Number(attempt?.completedAt ?? found.updated),
    exemptionCode: found.exemptionCode,
  };
  // In the patient's languages, as their order messages are (their choice, else the business's default).
  const { settings } = await effectiveFeatureSettings(deps.db, found.businessId);
  return { route, facts, locales: messageLocales(settings.patientLanguage, patient?.language) };
}

/** 429 when the receipt went less than a minute ago, or has gone as many times as an order allows. */
function requireResendAllowed(sent: { count: number; last: number | null }, now: number): void {
  const wait = sent.last === null ? 0 : sent.last + receiptPolicy.resendAfterSeconds * 1000 - now;
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw new AppError(
      'RATE_LIMITED',
      `The receipt was sent a moment ago. Please wait ${seconds} seconds before asking again.`,
      undefined,
      seconds,
    );
  }
  if (sent.count >= receiptPolicy.maxPerOrder) {
    throw new AppError(
      'RATE_LIMITED',
      `This order's receipt has been sent ${receiptPolicy.maxPerOrder} times already: please contact the pharmacy.`,
    );
  }
}

/**
 * Sends a paid order's receipt to its patient and records `receiptSent` and a `RECEIPT_SENT` event.
 * Again is allowed, at most once a minute and five times per order (429 with Retry-After): checked
 * under the order's row lock, so concurrent asks cannot slip past the count.
 */
export async function sendReceipt(deps: AppDeps, actor: Actor, input: CheckoutOrderInput): Promise<ReceiptAnswer> {
  const found = toOrder(requireReach(actor, await findOrder(deps.db, input.orderId), input.orderId));
  requirePaid(found);
  const { route, facts, locales } = await readReceipt(deps, found);
  const now = deps.now();
  const sentTo = maskRecipient(route.recipient);

  const row = await deps.db.transaction().execute(async (tx) => {
    const locked = await lockOrder(tx, found.id);
    if (!locked) throw new AppError('NOT_FOUND', `No order with id ${found.id}`);
    const order = toOrder(locked);
    requirePaid(order);
    const sent = await receiptsSentOf(tx, order.businessId, order.id);
    requireResendAllowed(sent, now);
    await queueMessages(
      tx,
      {
        businessId: order.businessId,
        message: {
          channel: route.channel,
          recipient: route.recipient,
          templateKey: receiptTemplateKey,
          subject: route.channel === 'email' ? receiptSubject(facts, locales) : null,
          body: route.channel === 'email' ? receiptEmailText(facts, locales) : receiptSmsText(facts, locales),
          orderId: order.id,
          patientId: order.patientId,
        },
        runAfter: now,
        // One message per ask: the count above is what limits them.
        dedupeKey: `order:${order.id}:${receiptTemplateKey}:${sent.count + 1}`,
      },
      now,
    );
    const marked = await markReceiptSent(tx, order.id, now);
    const how = route.channel === 'email' ? 'by email' : 'by SMS';
    await insertOrderEventRows(tx, [
      eventRow(
        deps,
        actor,
        marked,
        'RECEIPT_SENT',
        `Receipt for ${formatPence(facts.amount)} sent ${how} to ${sentTo}`,
        { channel: route.channel, sentTo, receiptId: facts.receiptId, templateKey: receiptTemplateKey },
      ),
    ]);
    await auditOrder(tx, deps, actor, 'order.sendReceipt', order, { channel: route.channel });
    return marked;
  });
  publishOrder(deps, row);
  return { order: toOrder(row), channel: route.channel, sentTo };
}
