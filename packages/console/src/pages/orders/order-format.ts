import { type Order, type OrderCreatedVia, type OrderDisplayStatus, orderDisplayStatus } from '@medlocker/core';

// The status and payment words are core's, shared with the orders CSV export.
export { orderStatusLabels, paymentStatusLabels } from '@medlocker/core';

/** Badge tones: waiting (new) and in the locker (loaded) differ from done, and Expired asks for action. */
export const orderStatusTones: Record<OrderDisplayStatus, 'ok' | 'off' | 'warn' | 'bad' | 'info'> = {
  new: 'info',
  loaded: 'ok',
  expired: 'warn',
  collected: 'off',
  removed: 'off',
  cancelled: 'bad',
};

export const createdViaLabels: Record<OrderCreatedVia, string> = {
  portal: 'Portal',
  'integration-api': 'Integration API',
  'qr-code': 'QR code',
};

/** What the console shows as an order's state now (Expired derived from `expiresAt`, core's rule). */
export const displayStatusOf = (order: Pick<Order, 'status' | 'expiresAt'>) => orderDisplayStatus(order, Date.now());

/** The machine and the slot the bag is in: 'Front Locker · A1', or '—' before a machine is known. */
export const machineOf = (order: Pick<Order, 'machineName' | 'machineDetails'>) =>
  [order.machineName ?? order.machineDetails?.machineName, order.machineDetails?.location]
    .filter(Boolean)
    .join(' · ') || '—';
