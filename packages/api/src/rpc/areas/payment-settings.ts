import {
  deletePaymentSettings,
  getPaymentClientSettings,
  getPaymentSettings,
  updatePaymentSettings,
} from '../../areas/payment-settings/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/paymentSettings/*`: a business's card payment settings, secrets sealed at rest. */
export const paymentSettingsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'paymentSettings', {
    getPaymentSettings,
    updatePaymentSettings,
    deletePaymentSettings,
    getPaymentClientSettings,
  });
