import { messageLocales } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import type { MessagePort } from '../../delivery/messages/port.ts';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import { findPatientContact, orderToMessage, recordMessageOnOrder } from '../orders/index.ts';
import { createShortUrl, shortUrlOf } from '../url/index.ts';

/**
 * What the message sender and the delivery reports need from the areas (delivery/messages/port.ts):
 * the orders' side of their messages, the business's sending settings, and short links to the patient
 * page. The job-handler registry and the delivery-report callbacks hand it to messaging.
 */
export const messagePort = (deps: AppDeps): MessagePort => ({
  orderToMessage: (tx, orderId, templateKey, now) => orderToMessage(deps, tx, orderId, templateKey, now),
  recordOnOrder: (tx, message, change, now) => recordMessageOnOrder(deps, tx, message, change, now),
  senderSettings: async (tx, businessId) => (await effectiveFeatureSettings(tx, businessId)).settings,
  patientLocales: async (tx, business, patientId) => {
    const patient = patientId ? await findPatientContact(tx, patientId) : undefined;
    return messageLocales(business, patient?.language);
  },
  portalLink: async (tx, { orderId, businessId }) => {
    const link = await createShortUrl(tx, deps, { target: orderId ? `/p/${orderId}` : '/', orderId, businessId });
    return shortUrlOf(deps, link.code);
  },
});
