export { createOrder } from './create.ts';
export { expiryReminderLeadMs, inBatches, recordExpiredOrders, sendExpiryReminders } from './expiry.ts';
export { collectOrder, loadOrder, removeOrder, verifyPin } from './locker-service.ts';
export { orderToMessage, recordMessageOnOrder } from './message-outcomes.ts';
export { queueOrderMessage, readyMessageKey } from './messages.ts';
export { eventRow, invalidTransition, publishOrder } from './moves.ts';
export { drawSealedPin, pinOf } from './pin.ts';
export {
  type Db,
  findBusinessForOrder,
  findOrder,
  findPatientForOrder,
  insertOrderEventRows,
  json,
  latestRequestedMessageSince,
  lockOrder,
  type OrderEventRow,
  type OrderRow,
  setBagOrder,
  setExpiryReminded,
  toOrder,
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
