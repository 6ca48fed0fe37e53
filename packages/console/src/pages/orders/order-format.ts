import {
  type Order,
  type OrderCreatedVia,
  type OrderDisplayStatus,
  orderDisplayStatus,
  type PaymentStatus,
} from '@medlocker/core';
import { t } from './i18n/index.ts';

/** The words for SPEC §4's statuses and the derived Expired, as filters and badges show them. */
export const orderStatusLabel = (status: OrderDisplayStatus) => t(`orders.status.${status}` as const);

/** Badge tones: waiting (new) and in the locker (loaded) differ from done, and Expired asks for action. */
export const orderStatusTones: Record<OrderDisplayStatus, 'ok' | 'off' | 'warn' | 'bad' | 'info'> = {
  new: 'info',
  loaded: 'ok',
  expired: 'warn',
  collected: 'off',
  removed: 'off',
  cancelled: 'bad',
};

/** A payment status in words (read when shown, so it follows the language). */
export const paymentStatusLabel = (status: PaymentStatus) => t(`orders.payment.${status}` as const);

/** Where an order was created from, in words. */
export const createdViaLabel = (via: OrderCreatedVia) => t(`orders.createdVia.${via}` as const);

/** What the console shows as an order's state now (Expired derived from `expiresAt`, core's rule). */
export const displayStatusOf = (order: Pick<Order, 'status' | 'expiresAt'>) => orderDisplayStatus(order, Date.now());

/** The machine and the slot the bag is in: 'Front Locker · A1', or '—' before a machine is known. */
export const machineOf = (order: Pick<Order, 'machineName' | 'machineDetails'>) =>
  [order.machineName ?? order.machineDetails?.machineName, order.machineDetails?.location]
    .filter(Boolean)
    .join(' · ') || t('orders.noValue');
