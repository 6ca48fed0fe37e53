import { defaultSmsTemplates, formatLongDate, formatTime, renderTemplate, type SmsTemplateKey } from '@medlocker/core';
import { systemActor } from '../../actor.ts';
import type { AppDeps } from '../../deps.ts';
import { enqueue } from '../../outbox/index.ts';
import { readSmsTemplates } from '../business-settings/repository.ts';
import { effectiveFeatureSettings } from '../business-settings/service.ts';
import { patientRoute } from './recipient.ts';
import {
  type Db,
  findBusinessForOrder,
  findPatientForOrder,
  insertOrderEventRows,
  type OrderRow,
} from './repository.ts';
import { eventRow } from './service.ts';

/** When a patient must collect by, as messages say it: '27 November 2026 at 18:30' (London time). */
export const expiresText = (at: number): string => `${formatLongDate(at)} at ${formatTime(at)}`;

/**
 * Queues what an order's change must tell its patient, in the transaction of the change (the outbox):
 * the business's wording of `key` (or the default), to the patient's mobile, else their email. The PIN
 * and the payment link are left as `${pin}` and `${portal}`: the sender fills them in when it sends, so
 * no outbox row ever holds a PIN. Each message is queued once per order (dedupe key). Nothing is queued
 * when the order's messages are suppressed, the patient has no contact, or the business turned the
 * message off (orderRemoved: sendOrderRemovedSms); a suppressed order's timeline says so. The channel
 * and recipient are recipient.ts's (WhatsApp for opted-in patients, email-first, SMS, email).
 * Returns whether a message was queued.
 */
export async function queueOrderMessage(db: Db, deps: AppDeps, order: OrderRow, key: SmsTemplateKey) {
  if (order.messages_suppressed) {
    // Staff looking at the timeline must see why the patient heard nothing (issue 18).
    await insertOrderEventRows(db, [
      eventRow(
        deps,
        systemActor('messages'),
        order,
        'MESSAGE_SUPPRESSED',
        'No message sent: messages are suppressed for this order',
        {
          templateKey: key,
        },
      ),
    ]);
    return false;
  }
  const { settings } = await effectiveFeatureSettings(db, order.business_id);
  if (key === 'orderRemoved' && !settings.sendOrderRemovedSms) return false;
  const patient = await findPatientForOrder(db, order.patient_id);
  if (!patient) return false;
  const route = await patientRoute(db, settings, patient);
  if (route === null) return false;
  const { channel, recipient } = route;
  const business = await findBusinessForOrder(db, order.business_id);
  const template = (await readSmsTemplates(db, order.business_id)).get(key) ?? defaultSmsTemplates[key];
  const businessName = business?.name ?? order.business_name;
  const machineName = order.machine_name ?? '';
  const body = renderTemplate(template, {
    businessName,
    machineName,
    machineAndBusiness: machineName ? `${machineName} at ${businessName}` : businessName,
    expires: order.expires_at === null ? undefined : expiresText(Number(order.expires_at)),
    postcode: undefined,
    temperature: undefined,
  });
  const now = deps.now();
  const { enqueued } = await enqueue(
    db,
    {
      type: 'message.send',
      businessId: order.business_id,
      payload: {
        channel,
        recipient,
        templateKey: key,
        subject: channel === 'email' ? `Your order from ${businessName}` : null,
        body,
        orderId: order.id,
        patientId: order.patient_id,
      },
      runAfter: now,
      dedupeKey: `order:${order.id}:${key}`,
    },
    now,
  );
  return enqueued > 0;
}
