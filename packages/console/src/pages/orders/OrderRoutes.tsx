import { Route, Routes } from 'react-router';
import { CreateOrder } from './CreateOrder.tsx';
import { OrderDetails } from './OrderDetails.tsx';
import { OrderList } from './OrderList.tsx';

/** `/businesses/{businessId}/orders/*` (routes not in SPEC §2; docs/decisions/orders.md): list, add, an order. */
export function OrderRoutes() {
  return (
    <Routes>
      <Route index element={<OrderList />} />
      <Route path="add" element={<CreateOrder />} />
      <Route path=":orderId" element={<OrderDetails />} />
    </Routes>
  );
}
