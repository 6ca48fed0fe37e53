import {
  expiresIn,
  messageLocales,
  type Order,
  orderEmailSubject,
  type PatientMessageKey,
  patientMessageNames,
} from '@medlocker/core';
import { type Actor, systemActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { maskRecipient } from '../../delivery/messages/send.ts';
import { queueMessages } from '../../outbox/index.ts';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import { findClientOfBusiness } from '../integration-clients/index.ts';
import type { Db } from './mapping-repository.ts';
import { orderMessageBody } from './message-wording.ts';
import { eventRow } from './moves.ts';
import { type PatientRoute, patientRoute } from './recipient.ts';
import { findBusinessForOrder, findPatientForOrder, insertOrderEventRows } from './repository.ts';

/** When a patient must collect by, as messages say it: '27 November 2026 at 18:30' (London time). */
export const expiresText = (at: number): string => expiresIn('en', at);

/**
 * The message that tells a patient their order is in the locker: payment required (with the link to
 * the patient page) while charges are unpaid at a machine that takes payment, since the PIN opens
 * nothing until they pay or declare an exemption (the locker answers PaymentRequired, as verifyPin
 * decides); otherwise order ready with the PIN.
 */
export const readyMessageKey = (order: Pick<Order, 'paymentStatus' | 'machinePayment'>) =>
  order.paymentStatus === 'unpaid' && order.machinePayment ? 'paymentRequired' : 'orderReady';

/** What became of a patient message: queued (to whom), or why not, in a sentence staff can read. */
export type MessageOutcome =
  | { sent: true; channel: PatientRoute['channel']; recipient: string; text: string }
  | { sent: false; text: string };

export type QueueOptions = {
  /** Who the timeline names for a suppression (staff who asked; else the system). */
  actor?: Actor;
  /** Default `order:{id}:{key}`: each message once per order. */
  dedupeKey?: string;
  /** Staff asked for it: the business's switch for the automatic message does not apply. */
  requested?: boolean;
};

/**
 * Queues what an order's change must tell its patient, in the transaction of the change (the outbox):
 * the business's wording of `key` (or the default; the fixed wording for expired and cancelled), to the
 * patient by recipient.ts's route (WhatsApp when opted in, email-first, SMS, email). The PIN and the payment link are left as `${pin}` and `${portal}`:
 * the sender fills them in when it sends, so no outbox row ever holds a PIN. Each message is queued once
 * per dedupe key. Nothing is queued, and the timeline says why, when the order's messages are suppressed,
 * the business's integration partner sends its patients' messages itself (SPEC §9), or the patient has
 * no contact; nor when the business turned an automatic message off (sendOrderRemovedSms,
 * sendOrderExpiringSms), a setting rather than an event of this order.
 */
export async function queueOrderMessage(
  db: Db,
  deps: AppDeps,
  order: Order,
  key: PatientMessageKey,
  options: QueueOptions = {},
): Promise<MessageOutcome> {
  const notSent = async (text: string, reason: string): Promise<MessageOutcome> => {
    // Staff looking at the timeline must see why the patient heard nothing.
    await insertOrderEventRows(db, [
      eventRow(deps, options.actor ?? systemActor('messages'), order, 'MESSAGE_SUPPRESSED', text, {
        templateKey: key,
        reason,
      }),
    ]);
    return { sent: false, text };
  };
  if (order.messagesSuppressed) {
    return notSent('No message sent: messages are suppressed for this order', 'order');
  }
  const client = await findClientOfBusiness(db, order.businessId);
  if (client?.suppressPatientMessages) {
    return notSent(`No message sent: ${client.name} sends this business's patient messages`, 'integration');
  }
  const { settings } = await effectiveFeatureSettings(db, order.businessId);
  if (!options.requested) {
    if (key === 'orderRemoved' && !settings.sendOrderRemovedSms) {
      return { sent: false, text: 'No message sent: the business does not send order-removed messages' };
    }
    if (key === 'orderExpiring' && !settings.sendOrderExpiringSms) {
      return { sent: false, text: 'No message sent: the business does not send expiry reminders' };
    }
  }
  const patient = await findPatientForOrder(db, order.patientId);
  const to = patient ? await patientRoute(db, settings, patient) : null;
  if (!to) return notSent('No message sent: the patient has no mobile number or email address', 'noContact');
  const business = await findBusinessForOrder(db, order.businessId);
  const locales = messageLocales(settings.patientLanguage, patient?.language);
  const body = await orderMessageBody(db, order, key, business, locales);
  const businessName = business?.name ?? order.businessName;
  const now = deps.now();
  const { enqueued } = await queueMessages(
    db,
    {
      businessId: order.businessId,
      message: {
        channel: to.channel,
        recipient: to.recipient,
        templateKey: key,
        subject: to.channel === 'email' ? orderEmailSubject(locales, businessName) : null,
        body,
        orderId: order.id,
        patientId: order.patientId,
      },
      runAfter: now,
      dedupeKey: options.dedupeKey ?? `order:${order.id}:${key}`,
    },
    now,
  );
  const name = patientMessageNames[key];
  if (enqueued === 0)
    return { sent: false, text: `No message sent: the ${name.toLowerCase()} message was queued already` };
  return { sent: true, ...to, text: `${name} message queued for ${maskRecipient(to.recipient)}` };
}

/** Messages that speak of a live, loaded order: its PIN, where it waits, when to collect by. */
const liveOrderMessages: readonly string[] = [
  'orderReady',
  'paymentRequired',
  'orderUpdated',
  'orderExpiring',
  'orderPinHeld',
  'orderPinReleased',
];

/** Messages that invite the patient to collect now (with the PIN, or to come back with it). */
const collectNowMessages: readonly string[] = ['orderReady', 'orderUpdated', 'orderExpiring', 'orderPinReleased'];

/**
 * Why a queued message must not go any more, if so: it speaks of a loaded order (ready, payment
 * required, updated, reminder) and the order was collected, removed, cancelled or expired before the
 * sender got to it (a retry after a gateway outage can come an hour later). While staff hold the PIN
 * nothing inviting collection goes (the locker would refuse the PIN); a pause whose hold was
 * released before it went does not go either (the release message follows it). Null: send it.
 */
export function staleMessageReason(
  templateKey: string,
  order: Pick<Order, 'status' | 'expiresAt' | 'pinHold'>,
  now: number,
): string | null {
  if (!liveOrderMessages.includes(templateKey)) return null;
  const name = patientMessageNames[templateKey as PatientMessageKey].toLowerCase();
  const expired = order.status === 'loaded' && order.expiresAt !== null && now >= order.expiresAt;
  if (order.status === 'loaded' && !expired) {
    const held = order.pinHold !== undefined;
    if (held && collectNowMessages.includes(templateKey)) {
      return `No message sent: the PIN was held before the ${name} message went`;
    }
    if (!held && templateKey === 'orderPinHeld') {
      return `No message sent: the PIN was released before the ${name} message went`;
    }
    return null;
  }
  return `No message sent: the order was ${expired ? 'expired' : order.status} before the ${name} message went`;
}
