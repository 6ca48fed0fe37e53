import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import {
  deletePaymentSettings,
  getPaymentClientSettings,
  getPaymentSettings,
  updatePaymentSettings,
} from './service.ts';

/** `POST /api/paymentSettings/*`: a business's card payment settings, secrets sealed at rest. */
export const paymentSettingsRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'paymentSettings', {
    getPaymentSettings,
    updatePaymentSettings,
    deletePaymentSettings,
    getPaymentClientSettings,
  });
