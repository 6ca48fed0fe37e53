import type { Locale, PatientLanguage, SmsGateway } from '@medlocker/core';
import type { QueuedMessage, Tx } from './repository.ts';

export type { Tx };

/** Where a message stands, as its order keeps it: the status, and for email the provider's words too. */
export type OrderDelivery = {
  status: 'pending' | 'success' | 'failed';
  providerStatus: string | null;
  details: string | null;
};

/** The message as the order's side of it needs it. */
export type MessageOnOrder = Pick<QueuedMessage, 'id' | 'orderId' | 'channel' | 'recipient' | 'templateKey'>;

/** A line on the order's timeline: the system actor that writes it (`message.send`…), its code and words. */
export type TimelineEntry = { by: string; code: string; words: string; data: Record<string, unknown> };

/** What a change to a message's order asks: a new last delivery status, a timeline line, or both. */
export type OrderChange = {
  delivery?: OrderDelivery;
  /** Set the delivery status only when no later message of the same kind was handed to a provider. */
  onlyIfLatest?: boolean;
  event?: TimelineEntry;
};

/** The order of a message about to go out, as the sender needs it. */
export type OrderToMessage = {
  id: string;
  /** Why the message must not go now (the order moved on since it was queued), or null. */
  stale: string | null;
  /** The order's PIN in the clear, null when it has none. */
  pin: () => string | null;
  /** The business's name, for an SMS sender ID when the business set none. */
  businessName: string | null;
};

/** Tells the consoles about an order's change, once the transaction that made it has committed. */
export type Publish = () => Promise<void> | void;

/**
 * What messaging needs from the areas: the order a message is about, the business's sending settings and
 * a short link to the patient page. Messaging sits below the areas and never imports them; the areas
 * provide this (areas/messages/port.ts) and the job-handler registry and the delivery-report callbacks
 * hand it in.
 */
export type MessagePort = {
  /** The message's order for sending, or undefined when it has none. */
  orderToMessage(tx: Tx, orderId: string, templateKey: string, now: number): Promise<OrderToMessage | undefined>;
  /**
   * Records a message's outcome on its order in the message's transaction (its last delivery status, a
   * timeline line): answers the publish of the order as it now is, undefined when the message has no order.
   */
  recordOnOrder(tx: Tx, message: MessageOnOrder, change: OrderChange, now: number): Promise<Publish | undefined>;
  /** The business's SMS gateway and sender name (its feature settings). */
  senderSettings(
    tx: Tx,
    businessId: string,
  ): Promise<{ smsGateway: SmsGateway; smsSenderName: string | null; patientLanguage: PatientLanguage }>;
  /** A short link to the patient page of the order (or the site without one), stored in the transaction. */
  portalLink(tx: Tx, target: { orderId: string | null; businessId: string | null }): Promise<string>;
  /**
   * The languages the patient reads (their choice, else `business`, the business's default from
   * senderSettings; bilingual: Welsh first), which the WhatsApp template is sent in.
   */
  patientLocales(tx: Tx, business: PatientLanguage, patientId: string | null): Promise<Locale[]>;
};
