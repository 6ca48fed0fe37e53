import { Elysia } from 'elysia';
import * as orderBulk from '../../areas/order-bulk/index.ts';
import * as orders from '../../areas/orders/index.ts';
import type { AppDeps } from '../../context/deps.ts';
import { rpcArea } from '../area.ts';
import { labelsPdfRoute } from '../labels-pdf.ts';

/** `POST /api/orders/*`: orders of a business, their PINs, timelines and labels (docs/ORDERS.md); their labels as a PDF; many at once. */
export const ordersRoutes = (deps: AppDeps) =>
  new Elysia({ name: 'routes:ordersArea' })
    .use(rpcArea(deps, 'orders', { ...orders, ...orderBulk }))
    .use(labelsPdfRoute(deps));
