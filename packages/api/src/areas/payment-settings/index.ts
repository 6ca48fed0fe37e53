export { useLocalJudopayForDemo } from './local-judopay.ts';
export {
  deletePaymentSettings,
  getPaymentClientSettings,
  getPaymentSettings,
  readPaymentSettings,
  updatePaymentSettings,
} from './service.ts';
