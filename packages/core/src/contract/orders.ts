import { type } from 'arktype';
import { BagLabel, labelsMax } from '../order/label.ts';
import { Order, OrderEvent } from '../order/order.ts';
import { Barcode, OrderInput, OrderReason } from '../order/order-input.ts';
import { OrderStatus } from '../order/statuses.ts';
import { Id, SearchText } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { byId } from './method-builders.ts';
import { Paging } from './paging.ts';

/** At most this many orders answer the top bar's search. */
export const findOrdersMax = 10;

/** Pages of orders and of an order's events are 25 long; `nextToken` is an opaque keyset cursor. */
export const ordersPageSize = 25;

/** An order as the api answers it: never with its PIN (`setRevealPinReason` gives it, recorded). */
const OrderOut = type({ order: Order });

/** `statusCode` of listOrdersByBusiness: one of SPEC §4's statuses, or `expired` (loaded, window passed). */
export const OrderStatusFilter = OrderStatus.or("'expired'");
export type OrderStatusFilter = typeof OrderStatusFilter.infer;

/** The columns people sort an order list by; each sort ends with the id, so pages never repeat a row. */
export const orderSortColumns = ['created', 'expires', 'status', 'machine', 'patient'] as const;
export const OrderSortColumn = type.enumerated(...orderSortColumns);
export type OrderSortColumn = typeof OrderSortColumn.infer;
export const OrderSortDirection = type("'ascending' | 'descending'");
export type OrderSortDirection = typeof OrderSortDirection.infer;

/** Which of a business's orders a list, a selection by filter and an export mean: the list's filters. */
const OrderFilter = {
  businessId: Id,
  /** Barcode, reference or patient name containing this text, in any case. */
  'filterText?': SearchText,
  /** Only new and loaded orders. */
  'onlyCurrent?': 'boolean',
  'statusCode?': OrderStatusFilter,
} as const;
const OrderSort = { 'sortBy?': OrderSortColumn, 'sortDirection?': OrderSortDirection } as const;

/** At most this many orders change in one bulk call (and a selection by filter chooses at most this many). */
export const bulkOrdersMax = 200;
/** At most this many orders go into one CSV export. */
export const ordersExportMax = 10_000;

/** What a bulk call does to each order: one single-order action each, in its own transaction. */
export const bulkOrderActions = ['markRemoved', 'cancel', 'resendReadyMessage', 'holdPin', 'releasePin'] as const;
export const BulkOrderAction = type.enumerated(...bulkOrderActions);
export type BulkOrderAction = typeof BulkOrderAction.infer;

/** Which order an outcome of a bulk call is about. */
const OutcomeOrder = { id: Id, reference: 'string | null' } as const;

/** One order's outcome in a bulk call: done, or refused with the single action's error code and message. */
export const BulkOrderOutcome = type({ ...OutcomeOrder, ok: 'true' }).or({
  ...OutcomeOrder,
  ok: 'false',
  code: 'string',
  message: 'string',
});
export type BulkOrderOutcome = typeof BulkOrderOutcome.infer;

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
  get: byId({
    output: OrderOut,
    access: staff({ order: 'id' }),
    summary: 'One order, without its PIN.',
  }),
  cancel: {
    input: type({ id: Id, reason: OrderReason }),
    output: OrderOut,
    access: staff({ order: 'id' }),
    summary: 'Cancels a new or loaded order, giving a reason; its PIN stops working at once.',
  },
  markCollected: byId({
    output: OrderOut,
    access: staff({ order: 'id' }),
    summary: 'Records that the patient has the bag (a new or loaded order).',
  }),
  markRemoved: byId({
    output: OrderOut,
    access: staff({ order: 'id' }),
    summary: 'Records that staff took a loaded order’s bag out of the locker.',
  }),
  setRevealPinReason: {
    input: type({ id: Id, reason: OrderReason }),
    output: type({ order: Order, pin: 'string' }),
    access: staff({ order: 'id' }),
    summary:
      'Returns the PIN of a new or loaded order that has not expired; who asked and why is an order event and an audit entry.',
  },
  listEvents: {
    input: type({ orderId: Id, ...Paging }),
    output: type({ events: OrderEvent.array(), nextToken: 'string | null' }),
    access: staff({ order: 'orderId' }),
    summary: "The order's timeline, oldest first, 25 a page.",
  },
  listOrdersByPatient: {
    input: type({ patientId: Id, ...Paging }),
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
    input: type({ ...OrderFilter, ...OrderSort, ...Paging }),
    output: type({ orders: Order.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId' }),
    summary:
      "A business's orders, 25 a page: by status (or expired), current only, or containing a text; newest first, or sorted by created, expires, status, machine or patient (ties by id).",
  },
  listOrderIds: {
    input: type(OrderFilter),
    output: type({ ids: Id.array() }),
    access: staff({ business: 'businessId' }),
    summary:
      'The ids of every order a list\'s filters match ("all matching the filter" for a bulk action), newest first; more than 200 is 400: narrow the filters.',
  },
  exportOrders: {
    input: type({ ...OrderFilter, ...OrderSort }),
    output: type({ csv: 'string', orders: 'number.integer >= 0' }),
    access: staff({ business: 'businessId' }),
    summary:
      'The orders a list shows (its filters and sort) as CSV, at most 10,000 (more is 400: narrow the filters). Audited as order.export.',
  },
  bulkUpdate: {
    input: type({
      ids: Id.array().atLeastLength(1).atMostLength(bulkOrdersMax),
      action: BulkOrderAction,
      'reason?': OrderReason,
    }),
    output: type({ outcomes: BulkOrderOutcome.array() }),
    access: staff({ order: 'ids' }),
    summary:
      'Marks removed, cancels (one reason), resends the ready message, holds or releases the PINs of up to 200 orders: each order as its single action does it (one transaction, one audit entry), and each outcome ok or its error; one order refused changes nothing of it and leaves the others done.',
  },
});
