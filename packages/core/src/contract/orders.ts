import { type } from 'arktype';
import { BagLabel, labelsMax } from '../order/label.ts';
import { Order, OrderEvent } from '../order/order.ts';
import { Barcode, OrderInput, OrderReason } from '../order/order-input.ts';
import { OrderStatus } from '../order/statuses.ts';
import { Id, NextToken, SearchText } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';

/** At most this many orders answer the top bar's search. */
export const findOrdersMax = 10;

/** Pages of orders and of an order's events are 25 long; `nextToken` is an opaque keyset cursor. */
export const ordersPageSize = 25;

/** An order as the api answers it: never with its PIN (`setRevealPinReason` gives it, recorded). */
const OrderOut = type({ order: Order });

/** `statusCode` of listOrdersByBusiness: one of SPEC §4's statuses, or `expired` (loaded, window passed). */
export const OrderStatusFilter = OrderStatus.or("'expired'");
export type OrderStatusFilter = typeof OrderStatusFilter.infer;

/**
 * Orders (SPEC §3, §4, §7): created by staff (or the integration API), bound to a bag by the locker that
 * loads it, collected with a PIN. Every change is an order event, in the same transaction. Who may move
 * an order from which state: core's `orderTransitions`, docs/ORDERS.md.
 */
export const orders = defineArea({
  create: {
    input: OrderInput,
    output: OrderOut,
    access: staff({ business: 'businessId', patient: 'patientId', machine: 'machineId' }),
    summary:
      'Adds an order for a current patient of the business, with a new reference, PIN and, when the machine is given, machine sequence. A second live order with the same barcode in the business is 409.',
  },
  get: {
    input: type({ id: Id }),
    output: OrderOut,
    access: staff({ order: 'id' }),
    summary: 'One order, without its PIN.',
  },
  cancel: {
    input: type({ id: Id, reason: OrderReason }),
    output: OrderOut,
    access: staff({ order: 'id' }),
    summary: 'Cancels a new or loaded order, giving a reason; its PIN stops working at once.',
  },
  markCollected: {
    input: type({ id: Id }),
    output: OrderOut,
    access: staff({ order: 'id' }),
    summary: 'Records that the patient has the bag (a new or loaded order).',
  },
  markRemoved: {
    input: type({ id: Id }),
    output: OrderOut,
    access: staff({ order: 'id' }),
    summary: 'Records that staff took a loaded order’s bag out of the locker.',
  },
  setRevealPinReason: {
    input: type({ id: Id, reason: OrderReason }),
    output: type({ order: Order, pin: 'string' }),
    access: staff({ order: 'id' }),
    summary:
      'Returns the PIN of a new or loaded order that has not expired; who asked and why is an order event and an audit entry.',
  },
  listEvents: {
    input: type({ orderId: Id, 'nextToken?': NextToken }),
    output: type({ events: OrderEvent.array(), nextToken: 'string | null' }),
    access: staff({ order: 'orderId' }),
    summary: "The order's timeline, oldest first, 25 a page.",
  },
  listOrdersByPatient: {
    input: type({ patientId: Id, 'nextToken?': NextToken }),
    output: type({ orders: Order.array(), nextToken: 'string | null' }),
    access: staff({ patient: 'patientId' }),
    summary: "A patient's orders, newest first, 25 a page.",
  },
  findOrders: {
    input: type({ text: Barcode }),
    output: type({ orders: Order.array() }),
    access: staff('filtered'),
    summary:
      'The top bar’s search: orders whose barcode or reference is this text (any case, blanks around ignored), in the businesses the caller reaches; at most 10, newest first.',
  },
  getLabels: {
    input: type({ ids: Id.array().atLeastLength(1).atMostLength(labelsMax) }),
    output: type({ labels: BagLabel.array() }),
    access: staff({ order: 'ids' }),
    summary:
      "The bag labels of up to 100 orders, in the order asked (the business's label size on each); read as the orders are, and audited so. GET /api/orders/labels.pdf?ids=… gives the same labels as a PDF.",
  },
  listOrdersByBusiness: {
    input: type({
      businessId: Id,
      /** Barcode, reference or patient name containing this text, in any case. */
      'filterText?': SearchText,
      'nextToken?': NextToken,
      /** Only new and loaded orders. */
      'onlyCurrent?': 'boolean',
      'statusCode?': OrderStatusFilter,
    }),
    output: type({ orders: Order.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId' }),
    summary:
      "A business's orders, newest first, 25 a page: by status (or expired), current only, or containing a text.",
  },
});
