import { type } from 'arktype';

/** SPEC §4. */
export const orderStatuses = ['new', 'loaded', 'collected', 'removed', 'cancelled'] as const;
export const OrderStatus = type.enumerated(...orderStatuses);
export type OrderStatus = typeof OrderStatus.infer;

export const paymentStatuses = ['not_required', 'unpaid', 'paid', 'exemption_declared'] as const;
export const PaymentStatus = type.enumerated(...paymentStatuses);
export type PaymentStatus = typeof PaymentStatus.infer;

export const orderCreatedVia = ['integration-api', 'qr-code', 'portal'] as const;
export const OrderCreatedVia = type.enumerated(...orderCreatedVia);
export type OrderCreatedVia = typeof OrderCreatedVia.infer;

/** Delivery of a notification message to a patient. */
export const deliveryStatuses = ['pending', 'success', 'failed'] as const;
export const DeliveryStatus = type.enumerated(...deliveryStatuses);
export type DeliveryStatus = typeof DeliveryStatus.infer;

/** The collection report's filter (SPEC §4), with the words shown. */
export const collectionFilters = ['All', 'Paid', 'PIN revealed', 'Exemption Declared', 'No Charge'] as const;
export const CollectionFilter = type.enumerated(...collectionFilters);
export type CollectionFilter = typeof CollectionFilter.infer;
