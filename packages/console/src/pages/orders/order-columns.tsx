import { formatDateTime, type Order } from '@medlocker/core';
import { orderPaths } from '../../paths.ts';
import { Link } from '../../ui/Link.tsx';
import type { ListColumn } from '../../ui/ListPage.tsx';
import { OrderStatusBadge } from './OrderStatusBadge.tsx';
import { machineOf, paymentStatusLabels } from './order-format.ts';

type Column = 'reference' | 'patient' | 'barcode' | 'machine' | 'status' | 'payment' | 'created' | 'expires';

/** Every column an order list may show; the reference opens the order. */
const columnsOf = (businessId: string): Record<Column, ListColumn<Order>> => ({
  reference: {
    key: 'reference',
    header: 'Reference',
    width: '7rem',
    render: (o) => <Link href={orderPaths.order(businessId, o.id)}>{o.reference}</Link>,
  },
  patient: { key: 'patient', header: 'Patient', width: 'minmax(9rem, 1.5fr)', render: (o) => o.patientName },
  barcode: { key: 'barcode', header: 'Barcode', width: 'minmax(8rem, 1fr)', render: (o) => o.barcode },
  machine: { key: 'machine', header: 'Machine', width: 'minmax(8rem, 1fr)', render: machineOf },
  status: { key: 'status', header: 'Status', width: '7rem', render: (o) => <OrderStatusBadge order={o} /> },
  payment: { key: 'payment', header: 'Payment', width: '8rem', render: (o) => paymentStatusLabels[o.paymentStatus] },
  created: { key: 'created', header: 'Created', width: '10rem', render: (o) => formatDateTime(o.created) },
  expires: {
    key: 'expires',
    header: 'Expires',
    width: '10rem',
    render: (o) => (o.expiresAt === null ? '—' : formatDateTime(o.expiresAt)),
  },
});

/** The columns an order list shows, in this order (the business's orders, or a patient's). */
export const orderColumns = (businessId: string, shown: Column[]): ListColumn<Order>[] => {
  const all = columnsOf(businessId);
  return shown.map((key) => all[key]);
};
