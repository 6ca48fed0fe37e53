import {
  type Order,
  type OrderCreatedVia,
  type OrderDisplayStatus,
  orderDisplayStatus,
  type PaymentStatus,
} from '@medlocker/core';

/** The words for SPEC §4's statuses and the derived Expired, as filters and badges show them. */
export const orderStatusLabels: Record<OrderDisplayStatus, string> = {
  new: 'New',
  loaded: 'Loaded',
  expired: 'Expired',
  collected: 'Collected',
  removed: 'Removed',
  cancelled: 'Cancelled',
};

/** Badge tones: waiting (new) and in the locker (loaded) differ from done, and Expired asks for action. */
export const orderStatusTones: Record<OrderDisplayStatus, 'ok' | 'off' | 'warn' | 'bad' | 'info'> = {
  new: 'info',
  loaded: 'ok',
  expired: 'warn',
  collected: 'off',
  removed: 'off',
  cancelled: 'bad',
};

export const paymentStatusLabels: Record<PaymentStatus, string> = {
  not_required: 'Not required',
  unpaid: 'Unpaid',
  paid: 'Paid',
  exemption_declared: 'Exemption declared',
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
