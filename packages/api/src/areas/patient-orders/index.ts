import type { AppDeps } from '../../deps.ts';
import { rpcArea } from '../../rpc/area.ts';
import { resendOrderReadyMessage, sendOrderExpiryMessage } from './service.ts';

/** `POST /api/patientOrders/*`: staff asking for a loaded order's patient messages (docs/ORDERS.md). */
export const patientOrdersRoutes = (deps: AppDeps) =>
  rpcArea(deps, 'patientOrders', { resendOrderReadyMessage, sendOrderExpiryMessage });
