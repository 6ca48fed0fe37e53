export { createOrderFromQr as createOrder, getSigningKey, orderForScannedBag, rotateSigningKey } from './service.ts';
