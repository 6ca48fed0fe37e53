import { type } from 'arktype';
import { ExemptionCode } from '../order/exemption-code.ts';
import type { Order } from '../order/order.ts';
import { OrderCreatedVia, OrderStatus, PaymentStatus } from '../order/statuses.ts';

/*
 * What a pharmacy's record system hears: the events of its business, the same objects on
 * the events feed (`GET /integration/v1/events`) and in webhook bodies. Times are ISO 8601 in UTC,
 * money in pence: a partner's system reads them without our conventions.
 */

/** Every event type, in the words of the integration API. */
export const integrationEventTypes = [
  'order.created',
  'order.loaded',
  'order.collected',
  'order.removed',
  'order.cancelled',
  'order.expired',
  'order.payment_updated',
  'order.pin_held',
  'order.pin_released',
  'message.status',
  'machine.alarm',
  'machine.alarm.acknowledged',
  'machine.alarm.escalated',
  'machine.alarm.resolved',
  'machine.status',
  'patient.erased',
] as const;
export const IntegrationEventType = type.enumerated(...integrationEventTypes);
export type IntegrationEventType = typeof IntegrationEventType.infer;

/** A test event sent from the delivery console: delivered like the others, never on the feed. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

const IsoTime = 'string';

/** An order as the integration API shows it: no PIN, no staff-only fields, no signature. */
export const IntegrationOrder = type({
  id: 'string',
  reference: 'string',
  patientId: 'string',
  barcode: 'string',
  machineId: 'string | null',
  machineName: 'string | null',
  status: OrderStatus,
  paymentStatus: PaymentStatus,
  /** pence */
  prescriptionCharge: 'number.integer >= 0',
  retailCharge: 'number.integer >= 0',
  amountPaid: 'number.integer >= 0',
  exemptionCode: ExemptionCode.or('null'),
  /** days */
  collectionWindow: 'number.integer > 0',
  expiresAt: type(IsoTime).or('null'),
  collectedAt: type(IsoTime).or('null'),
  cancelledAt: type(IsoTime).or('null'),
  createdVia: OrderCreatedVia,
  messagesSuppressed: 'boolean',
  createdAt: IsoTime,
  updatedAt: IsoTime,
});
export type IntegrationOrder = typeof IntegrationOrder.infer;

const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : isoTime(ms));

/** ms since the epoch → ISO 8601 in UTC with milliseconds. */
export const isoTime = (ms: number): string => new Date(ms).toISOString();

/** The integration view of an order (core's Order, as the services build it). */
export function toIntegrationOrder(order: Order): IntegrationOrder {
  return {
    id: order.id,
    reference: order.reference,
    patientId: order.patientId,
    barcode: order.barcode,
    machineId: order.machineId,
    machineName: order.machineName,
    status: order.status,
    paymentStatus: order.paymentStatus,
    prescriptionCharge: order.prescriptionCharge,
    retailCharge: order.retailCharge,
    amountPaid: order.amountPaid,
    exemptionCode: order.exemptionCode,
    collectionWindow: order.collectionWindow,
    expiresAt: iso(order.expiresAt),
    collectedAt: iso(order.collected),
    cancelledAt: iso(order.cancelled?.cancelledAt),
    createdVia: order.createdVia,
    messagesSuppressed: order.messagesSuppressed,
    createdAt: isoTime(order.created),
    updatedAt: isoTime(order.updated),
  };
}

/**
 * One event: `id` is the event's id (also the webhook-id of its delivery), `sequence` its place in the
 * business's feed (the cursor), `data` the object it is about as it was when it happened.
 */
export const IntegrationEvent = type({
  id: 'string',
  sequence: 'number.integer > 0',
  type: 'string',
  timestamp: IsoTime,
  data: 'Record<string, unknown>',
});
export type IntegrationEvent = typeof IntegrationEvent.infer;
