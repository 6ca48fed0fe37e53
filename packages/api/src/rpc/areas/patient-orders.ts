import {
  getPatientOrder,
  listPatientOrders,
  resendOrderReadyMessage,
  sendOrderExpiryMessage,
  setPatientLanguage,
} from '../../areas/patient-orders/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/**
 * `POST /api/patientOrders/*`: the patient page's own orders (`list`, `get`, patient session only), and
 * staff asking for a loaded order's patient messages (docs/ORDERS.md).
 */
export const patientOrdersRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'patientOrders', {
    list: listPatientOrders,
    get: getPatientOrder,
    setLanguage: setPatientLanguage,
    resendOrderReadyMessage,
    sendOrderExpiryMessage,
  });
