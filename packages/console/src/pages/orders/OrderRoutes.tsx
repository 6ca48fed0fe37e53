import { Route, Routes } from 'react-router';
import { lazyPage } from '../../ui/lazy-page.ts';
import { CreateOrder } from './CreateOrder.tsx';
import { OrderDetails } from './details/OrderDetails.tsx';
import { OrderList } from './OrderList.tsx';

// The print view loads when first opened, with bwip-js in its own chunk.
const OrderLabels = lazyPage(() => import('./labels/OrderLabels.tsx'), 'OrderLabels');
// The order import (papaparse's reading and the steps) loads when first opened too.
const ImportOrders = lazyPage(() => import('./import/ImportOrders.tsx'), 'ImportOrders');

/**
 * `/businesses/{businessId}/orders/*` (routes not in SPEC §2; docs/decisions/orders.md): list, add, an
 * order, the import of orders from a CSV, the print view of orders' bag labels.
 */
export function OrderRoutes() {
  return (
    <Routes>
      <Route index element={<OrderList />} />
      <Route path="add" element={<CreateOrder />} />
      <Route path="import" element={<ImportOrders />} />
      <Route path="labels" element={<OrderLabels />} />
      <Route path=":orderId" element={<OrderDetails />} />
    </Routes>
  );
}
