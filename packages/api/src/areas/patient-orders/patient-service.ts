import {
  AppError,
  acceptedCardSchemes,
  formatPin,
  type Order,
  orderAmountDue,
  type PatientOrderSummary,
} from '@medlocker/core';
import { auditReads } from '../../audit/audit.ts';
import type { Actor } from '../../context/actor.ts';
import type { Service } from '../../context/method.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';
import { findOrder, pinOf, toOrder } from '../orders/index.ts';
import { readPaymentSettings } from '../payment-settings/index.ts';
import { patientPageLanguage } from './language.ts';
import { findOrdersOfPatient, findPharmacy, lastReceiptSentTo } from './repository.ts';

/*
 * The patient page's orders: what the signed-in patient sees of their own orders. The access
 * layer has already refused another patient's order (404); these check it again, so a service called
 * from elsewhere with a patient actor cannot reach further.
 */

type PatientActor = Extract<Actor, { kind: 'patient' }>;

/** Orders listed on the patient page at most: a patient collects a few a month. */
export const patientOrdersMax = 100;

const isExpired = (o: Pick<Order, 'status' | 'expiresAt'>, now: number) =>
  o.status === 'loaded' && o.expiresAt !== null && now >= o.expiresAt;

/** An order as its patient sees it (core's PatientOrderSummary): no staff names, barcode or notes. */
export function patientSummaryOf(o: Order, now: number): PatientOrderSummary {
  const expired = isExpired(o, now);
  const live = (o.status === 'new' || o.status === 'loaded') && !expired;
  // An exemption declared on an order with a retail charge too leaves the retail charge owed.
  const due = orderAmountDue(o);
  return {
    id: o.id,
    reference: o.reference,
    businessName: o.businessName,
    status: o.status,
    expired,
    live,
    onHold: live && o.pinHold !== undefined,
    paymentStatus: o.paymentStatus,
    paymentRequired: live && due > 0,
    prescriptionCharge: o.prescriptionCharge,
    retailCharge: o.retailCharge,
    amountDue: due,
    amountPaid: o.amountPaid,
    receiptSent: o.receiptSent,
    exemptionCode: o.exemptionCode,
    machineName: o.machineName,
    expiresAt: o.expiresAt,
    collected: o.collected,
    cancelled: o.cancelled?.cancelledAt ?? null,
    created: o.created,
  };
}

/**
 * Whether the PIN may be shown: the bag is in the locker, unexpired, and the locker would accept it
 * (at a machine taking payment, an unpaid charge makes VerifyPin answer PaymentRequired; a held PIN
 * is answered Held until staff release it).
 */
export const pinUsable = (o: Order, now: number): boolean =>
  o.status === 'loaded' &&
  !isExpired(o, now) &&
  o.pinHold === undefined &&
  !(o.paymentStatus === 'unpaid' && o.machinePayment);

/** The patient's orders: live ones first (soonest expiry first), then the rest newest first. */
export const listPatientOrders: Service<'patientOrders/list', PatientActor> = async (deps, actor, _input) => {
  const now = deps.now();
  const rows = await findOrdersOfPatient(deps.db, actor.businessId, actor.patientId, patientOrdersMax);
  const orders = rows.map((row) => patientSummaryOf(toOrder(row), now));
  const live = orders
    .filter((o) => o.live)
    .sort((a, b) => (a.expiresAt ?? Number.MAX_SAFE_INTEGER) - (b.expiresAt ?? Number.MAX_SAFE_INTEGER));
  return { orders: [...live, ...orders.filter((o) => !o.live)] };
};

/** One of the patient's orders, with where to collect it and, once usable, its PIN. */
export const getPatientOrder: Service<'patientOrders/get', PatientActor> = async (deps, actor, input) => {
  const row = await findOrder(deps.db, input.orderId);
  const order = row && toOrder(row);
  if (!row || !order || order.patientId !== actor.patientId || order.businessId !== actor.businessId) {
    throw new AppError('NOT_FOUND', `No order with id ${input.orderId}`);
  }
  const now = deps.now();
  const pin = pinUsable(order, now) ? pinOf(deps.config.secretsKey, row) : null;
  const [pharmacy, payments, receiptSentTo, language] = await Promise.all([
    findPharmacy(deps.db, order.businessId),
    readPaymentSettings(deps.db, createSecretBox(deps.config.secretsKey), order.businessId),
    order.receiptSent ? lastReceiptSentTo(deps.db, order.businessId, order.id) : null,
    patientPageLanguage(deps.db, order.businessId, actor.patientId),
  ]);
  const judo = payments?.provider === 'judo' ? payments.judo : null;
  const acceptedCards = judo?.id && judo.token && judo.secret ? acceptedCardSchemes(judo) : [];
  if (pin !== null) {
    // The patient page showing a PIN is a read of a secret: recorded like staff reading patients.
    await auditReads(deps.db, deps, actor, [
      { action: 'order.pin.shownToPatient', entityType: 'order', entityId: order.id, businessId: order.businessId },
    ]);
  }
  return {
    order: patientSummaryOf(order, now),
    location: order.machineDetails?.location ?? null,
    pharmacy: {
      name: pharmacy?.name ?? order.businessName,
      address: pharmacy
        ? {
            line1: pharmacy.line1,
            line2: pharmacy.line2,
            line3: pharmacy.line3,
            postTown: pharmacy.postTown,
            postcode: pharmacy.postcode,
          }
        : null,
      // What the patient page gives whenever it says to contact the pharmacy (docs/decisions/checkout.md).
      phone: payments?.contactNumber.trim() || null,
      email: pharmacy?.email || null,
    },
    pin: pin === null ? null : formatPin(pin),
    cardPayments: acceptedCards.length > 0,
    acceptedCards,
    receiptSentTo,
    language,
  };
};
