import { AppError, isOrderExpired, type Order, orderAmountDue } from '@medlocker/core';
import type { Actor } from '../../context/actor.ts';
import { type StoredOrder, toOrder } from '../orders/index.ts';

/*
 * Who may settle an order's charge, what it still owes, and whether it can be settled now: the checks
 * the card payment, the exemption declaration and the receipt share.
 */

export const notFound = (id: string) => new AppError('NOT_FOUND', `No order with id ${id}`);

/**
 * Whether the actor may settle this order's payment: the patient whose order it is, staff of its
 * business (support: any), the system (Judopay's webhook). Anyone else gets the same 404 as a missing
 * order, so an id never tells whether another patient's order exists.
 */
export function requireReach(actor: Actor, order: StoredOrder | undefined, id: string): StoredOrder {
  if (!order) throw notFound(id);
  const { businessId, patientId } = toOrder(order);
  const ok =
    actor.kind === 'support' ||
    actor.kind === 'system' ||
    (actor.kind === 'pharmacy' && actor.businesses.has(businessId)) ||
    (actor.kind === 'patient' && actor.patientId === patientId && actor.businessId === businessId);
  if (!ok) throw notFound(id);
  return order;
}

type Charges = Pick<Order, 'paymentStatus' | 'prescriptionCharge' | 'retailCharge' | 'exemptionCode'>;

/**
 * What the patient still owes for an order, in pence (core's orderAmountDue): its retail charge, plus
 * its prescription charge unless an exemption has been declared; nothing once settled.
 */
export const amountDue = (order: Charges): number =>
  orderAmountDue({
    paymentStatus: order.paymentStatus,
    prescriptionCharge: order.prescriptionCharge,
    retailCharge: order.retailCharge,
    exemptionCode: order.exemptionCode,
  });

/**
 * Refuses (409) an order whose charge cannot be settled now: one that is not live (collected, removed,
 * cancelled, or loaded past its expiry), one without a charge, one already paid or declared exempt (and,
 * with an exemption declared, nothing else left to pay).
 */
export function requireUnpaidLiveOrder(order: Order, now: number): void {
  const expired = isOrderExpired(order, now);
  if (!(order.status === 'new' || order.status === 'loaded') || expired) {
    const state = expired ? 'expired' : order.status;
    throw new AppError('CONFLICT', `This order is ${state}: its charge can no longer be settled`, [
      { path: 'orderId', id: 'INVALID_TRANSITION', message: state },
    ]);
  }
  const charged = order.prescriptionCharge + order.retailCharge;
  if (order.paymentStatus === 'not_required' || charged <= 0) {
    throw new AppError('CONFLICT', 'This order has no charge to pay');
  }
  if (order.paymentStatus === 'paid') throw new AppError('CONFLICT', 'This order is paid already');
  if (order.paymentStatus === 'exemption_declared' || amountDue(order) <= 0) {
    throw new AppError('CONFLICT', 'An exemption has been declared for this order: there is nothing to pay');
  }
}
