export {
  deletePaymentSettings,
  getPaymentClientSettings,
  getPaymentSettings,
  readPaymentSettings,
  updatePaymentSettings,
} from './service.ts';
