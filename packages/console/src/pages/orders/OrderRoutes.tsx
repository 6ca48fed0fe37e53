import { Route, Routes } from 'react-router';
import { lazyPage } from '../../ui/lazy-page.ts';
import { CreateOrder } from './CreateOrder.tsx';
import { OrderDetails } from './OrderDetails.tsx';
import { OrderList } from './OrderList.tsx';

// The print view loads when first opened, with bwip-js in its own chunk.
const OrderLabels = lazyPage(() => import('./labels/OrderLabels.tsx'), 'OrderLabels');

/**
 * `/businesses/{businessId}/orders/*` (routes not in SPEC §2; docs/decisions/orders.md): list, add, an
 * order, the print view of orders' bag labels.
 */
export function OrderRoutes() {
  return (
    <Routes>
      <Route index element={<OrderList />} />
      <Route path="add" element={<CreateOrder />} />
      <Route path="labels" element={<OrderLabels />} />
      <Route path=":orderId" element={<OrderDetails />} />
    </Routes>
  );
}
