export { createOrder, createOrderIn } from './create.ts';
export { expiryReminderLeadMs, inBatches, recordExpiredOrders, sendExpiryReminders } from './expiry.ts';
export { setExpiryReminded } from './expiry-repository.ts';
export { getLabels, getLabelsPdf } from './labels.ts';
export { listOrderIdsOf, listOrders } from './list-repository.ts';
export { setBagOrder } from './locker-repository.ts';
export { collectOrder, loadOrder, removeOrder, verifyPin } from './locker-service.ts';
export {
  type Db,
  json,
  type OrderEventRow,
  type OrderRow,
  type StoredOrder,
  toOrder,
  toOrderEvent,
  toStoredOrder,
} from './mapping-repository.ts';
export { orderToMessage, recordMessageOnOrder } from './message-outcomes.ts';
export { queueOrderMessage, readyMessageKey } from './messages.ts';
export { auditOrder, eventRow, invalidTransition, publishOrder } from './moves.ts';
export { drawSealedPin, pinOf } from './pin.ts';
export {
  findBusinessForOrder,
  findOrder,
  findPatientContact,
  findPatientForOrder,
  insertOrderEventRows,
  latestRequestedMessageSince,
  liveOrderWithBarcode,
  lockOrder,
} from './repository.ts';
export {
  auditOrderReads,
  cancel,
  create,
  findOrders,
  get,
  listEvents,
  listOrdersByBusiness,
  listOrdersByPatient,
  markCollected,
  markRemoved,
  setRevealPinReason,
} from './service.ts';
export { listSortedPage, orderFilterOf } from './sorted-list.ts';
