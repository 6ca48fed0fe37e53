import { formatDateTime, type Order } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { orderPaths } from '../../paths.ts';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { OrderStatusBadge } from '../orders/OrderStatusBadge.tsx';
import { machineOf } from '../orders/order-format.ts';

/**
 * The patient page's orders (orders/listOrdersByPatient, newest first), each linking to its order
 * page. A live push about an order of the business reloads it with every other `['orders', ...]` answer.
 */
export function PatientOrders({ businessId, patientId }: { businessId: string; patientId: string }) {
  const columns: ListColumn<Order>[] = [
    {
      key: 'reference',
      header: 'Reference',
      width: '7rem',
      render: (o) => <Link href={orderPaths.order(businessId, o.id)}>{o.reference}</Link>,
    },
    { key: 'barcode', header: 'Barcode', width: 'minmax(8rem, 1fr)', render: (o) => o.barcode },
    { key: 'machine', header: 'Machine', width: 'minmax(8rem, 1fr)', render: machineOf },
    { key: 'status', header: 'Status', width: '7rem', render: (o) => <OrderStatusBadge order={o} /> },
    { key: 'created', header: 'Created', width: '10rem', render: (o) => formatDateTime(o.created) },
  ];
  return (
    <ListPage
      title="Orders"
      frame="part"
      reload={false}
      query={{
        key: ['orders', 'listOrdersByPatient', patientId],
        load: async (_search, nextToken) => {
          const page = await rpc('orders', 'listOrdersByPatient', { patientId, nextToken: nextToken ?? undefined });
          return { items: page.orders, nextToken: page.nextToken };
        },
      }}
      label="Orders of the patient"
      columns={columns}
      emptyText="No orders found."
    />
  );
}
