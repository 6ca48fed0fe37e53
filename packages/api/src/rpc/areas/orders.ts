import * as orders from '../../areas/orders/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';

/** `POST /api/orders/*`: orders of a business, their PINs and timelines (docs/ORDERS.md). */
export const ordersRoutes = (deps: AppDeps) => rpcArea(deps, 'orders', orders);
