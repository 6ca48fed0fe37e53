import type { Order, OrderEvent } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';

/*
 * The orders tables' rows as this area's objects: a stored order (core's Order and its PIN's stored
 * forms) and an order event. The repositories map what they read through here; services never see a row.
 */

export type Db = Kysely<Database> | Transaction<Database>;
export type OrderRow = Selectable<Database['orders']>;
export type OrderEventRow = Selectable<Database['order_events']>;
export type NewOrderRow = Insertable<Database['orders']>;

/**
 * A jsonb column as read: parsed already (PostgreSQL) or text (some drivers); null stays null. A parsed
 * jsonb string (lastNotificationStatus holds `"success"`) comes as a plain string that is not JSON text:
 * it is the value itself.
 */
export const json = <T>(value: unknown): T | null => {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return value as T;
  }
};

/**
 * An order as this area keeps it: core's Order with its PIN's two stored forms beside it, which only
 * the flows that seal, reveal, send or look up a PIN read (the sealed `sealedPin`, opened by pin.ts;
 * `pinLookup`, the HMAC a locker's VerifyPin looks up). Core's `pin` stays null: `toOrder` is how an
 * order leaves the area's services, without either form.
 */
export type StoredOrder = Order & { sealedPin: string | null; pinLookup: string | null };

/** A stored order's row as the area's StoredOrder; snake_case stops here. */
export function toStoredOrder(row: OrderRow): StoredOrder {
  const machineDetails = json<Order['machineDetails']>(row.machine_details);
  const stamp = (at: number | null, by: string | null, display: string | null) =>
    at === null ? null : { changedAt: Number(at), changedBy: by ?? '', changedByDisplayName: display ?? '' };
  return {
    id: row.id,
    reference: row.reference,
    businessId: row.business_id,
    businessName: row.business_name,
    patientId: row.patient_id,
    patientName: row.patient_name,
    barcode: row.barcode,
    machineId: row.machine_id,
    machineName: row.machine_name,
    machineSequence: row.machine_sequence === null ? null : Number(row.machine_sequence),
    machinePayment: row.machine_payment,
    pin: null,
    status: row.status,
    paymentStatus: row.payment_status,
    paymentId: row.payment_id,
    amountPaid: Number(row.amount_paid),
    prescriptionCharge: Number(row.prescription_charge),
    retailCharge: Number(row.retail_charge),
    exemptionCode: row.exemption_code,
    exemptionDetails: json<Order['exemptionDetails']>(row.exemption_details),
    collectionWindow: row.collection_window,
    collected: row.collected === null ? null : Number(row.collected),
    cancelled:
      row.cancelled_at === null
        ? null
        : {
            cancelledAt: Number(row.cancelled_at),
            cancelledBy: row.cancelled_by ?? '',
            cancelledByDisplayName: row.cancelled_by_display ?? '',
          },
    markedCollected: stamp(row.marked_collected_at, row.marked_collected_by, row.marked_collected_by_display),
    markedRemoved: stamp(row.marked_removed_at, row.marked_removed_by, row.marked_removed_by_display),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdVia: row.created_via,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    userId: row.user_id,
    receiptSent: row.receipt_sent,
    messagesSuppressed: row.messages_suppressed,
    lastEmailStatus: json<Order['lastEmailStatus']>(row.last_email_status),
    lastNotificationStatus: json<Order['lastNotificationStatus']>(row.last_notification_status),
    machineDetails: machineDetails === null ? null : { ...machineDetails, pin: null },
    patientDetails: json<Record<string, unknown>>(row.patient_details),
    ...(row.pin_held_at === null
      ? {}
      : {
          pinHold: {
            heldAt: Number(row.pin_held_at),
            heldBy: row.pin_held_by ?? '',
            heldByDisplayName: row.pin_held_by_display ?? '',
            reason: row.pin_hold_reason ?? '',
          },
        }),
    sequence: Number(row.sequence),
    created: Number(row.created),
    updated: Number(row.updated),
    sealedPin: row.pin,
    pinLookup: row.pin_lookup,
  };
}

/** An order as core describes it, never with its PIN: `setRevealPinReason` is the only way to it. */
export function toOrder(stored: StoredOrder): Order {
  const { sealedPin: _sealed, pinLookup: _lookup, ...order } = stored;
  return order;
}

/**
 * An order as a list shows it: without the declaration's signature (a data URL of up to 64 KB, which a
 * page of 25 would carry 25 times); `orders/get` has it.
 */
export function toListedOrder(stored: StoredOrder): Order {
  const order = toOrder(stored);
  return order.exemptionDetails
    ? { ...order, exemptionDetails: { ...order.exemptionDetails, signature: null } }
    : order;
}

export function toOrderEvent(row: OrderEventRow): OrderEvent {
  return {
    id: row.id,
    businessId: row.business_id,
    orderId: row.order_id,
    orderReference: row.order_reference,
    patientId: row.patient_id ?? '',
    code: row.code,
    barcode: row.barcode,
    message: row.message,
    data: json<Record<string, unknown>>(row.data),
    fullPatientName: row.full_patient_name ?? '',
    patientDisplayId: row.patient_display_id ?? '',
    created: Number(row.created),
  };
}
