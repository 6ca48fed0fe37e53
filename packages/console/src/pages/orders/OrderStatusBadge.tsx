import type { Order } from '@medlocker/core';
import { displayStatusOf, orderStatusLabel, orderStatusTones } from './order-format.ts';

/** An order's status as a coloured badge: SPEC §4's status, or Expired once its window has passed. */
export function OrderStatusBadge({ order }: { order: Pick<Order, 'status' | 'expiresAt'> }) {
  const status = displayStatusOf(order);
  return <span className={`badge badge--${orderStatusTones[status]}`}>{orderStatusLabel(status)}</span>;
}
