import { formatDateTime, formatPence, type Order, orderAmountDue } from '@medlocker/core';
import type { ReactNode } from 'react';
import { patientPaths } from '../../paths.ts';
import { Link } from '../../ui/Link.tsx';
import { displayIdOf } from '../patients/patient-format.ts';
import { t } from './i18n/index.ts';
import { OrderStatusBadge } from './OrderStatusBadge.tsx';
import { createdViaLabel, paymentStatusLabel } from './order-format.ts';

const item = (label: string, value: ReactNode) => (
  <div className="details__item">
    <dt>{label}</dt>
    <dd>{value === '' || value === null || value === undefined ? t('orders.noValue') : value}</dd>
  </div>
);

/** Who ended the order and when, from whichever stamp its final state left. */
function closedBy(order: Order): string | null {
  const { cancelled, markedCollected, markedRemoved } = order;
  if (cancelled)
    return t('orders.summary.cancelledBy', {
      at: formatDateTime(cancelled.cancelledAt),
      by: cancelled.cancelledByDisplayName,
    });
  if (markedCollected)
    return t('orders.summary.markedCollectedBy', {
      at: formatDateTime(markedCollected.changedAt),
      by: markedCollected.changedByDisplayName,
    });
  if (markedRemoved)
    return t('orders.summary.markedRemovedBy', {
      at: formatDateTime(markedRemoved.changedAt),
      by: markedRemoved.changedByDisplayName,
    });
  if (order.collected !== null) return t('orders.summary.collectedAtLocker', { at: formatDateTime(order.collected) });
  return null;
}

const deliveryOf = (status: 'pending' | 'success' | 'failed') => t(`orders.summary.delivery.${status}` as const);

/** How the patient's last messages fared (the providers' delivery reports), or why none go. */
function messagesOf(order: Order): string {
  if (order.messagesSuppressed) return t('orders.summary.messagesSuppressed');
  const parts = [
    order.lastNotificationStatus &&
      t('orders.summary.messageText', { delivery: deliveryOf(order.lastNotificationStatus) }),
    order.lastEmailStatus &&
      t('orders.summary.messageEmail', {
        address: order.lastEmailStatus.address,
        delivery: deliveryOf(order.lastEmailStatus.status),
      }),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : t('orders.summary.noMessages');
}

/**
 * The payment status, with what is still owed when unpaid: an exemption declared on an order with a
 * retail charge too leaves the retail charge to pay.
 */
function paymentOf(order: Order): string {
  const label = paymentStatusLabel(order.paymentStatus);
  const due = orderAmountDue(order);
  if (order.paymentStatus !== 'unpaid' || due <= 0) return label;
  const values = { label, due: formatPence(due) };
  return order.exemptionCode ? t('orders.summary.toPayRetail', values) : t('orders.summary.toPay', values);
}

function exemptionOf(order: Order): string {
  if (!order.exemptionCode) return t('orders.summary.noExemption');
  const d = order.exemptionDetails;
  if (!d) return order.exemptionCode;
  const values = { code: order.exemptionCode, name: d.nameOfDeclarant };
  return d.onBehalfOfPatient ? t('orders.summary.declaredByOnBehalf', values) : t('orders.summary.declaredBy', values);
}

/** When, how and (when the created event names them) by whom the order was created. */
function createdOf(order: Order, creator: string | undefined): string {
  const values = { at: formatDateTime(order.created), via: createdViaLabel(order.createdVia) };
  return creator ? t('orders.summary.createdViaBy', { ...values, creator }) : t('orders.summary.createdVia', values);
}

/**
 * The order's details (SPEC §3 fields staff act on): state, patient, bag and machine, dates, charges
 * in pounds and payment. The PIN is never here (Reveal PIN asks why first). `creator` is the name
 * on the order's created event, as `createdBy` holds an id.
 */
export function OrderSummary({ order, creator }: { order: Order; creator: string | undefined }) {
  const displayId = order.patientDetails?.displayId;
  const machine = order.machineDetails;
  const closed = closedBy(order);
  return (
    <dl className="details">
      {item(t('orders.summary.reference'), order.reference)}
      {item(t('orders.summary.status'), <OrderStatusBadge order={order} />)}
      {closed && item(t('orders.summary.finished'), closed)}
      {item(
        t('orders.summary.patient'),
        <Link href={patientPaths.patient(order.businessId, order.patientId)}>
          {order.patientName}
          {typeof displayId === 'string' && displayId ? ` (${displayIdOf(displayId)})` : ''}
        </Link>,
      )}
      {item(t('orders.summary.barcode'), order.barcode)}
      {item(
        t('orders.summary.machine'),
        order.machineName ?? machine?.machineName ?? t('orders.summary.machineNotChosen'),
      )}
      {item(
        t('orders.summary.location'),
        machine?.location ?? (order.status === 'new' ? t('orders.summary.notLoaded') : ''),
      )}
      {item(t('orders.summary.machineSequence'), order.machineSequence === null ? '' : String(order.machineSequence))}
      {item(t('orders.summary.created'), createdOf(order, creator))}
      {item(t('orders.summary.collectionWindow'), t('orders.summary.days', { count: order.collectionWindow }))}
      {item(
        t('orders.summary.expires'),
        order.expiresAt === null ? t('orders.summary.expiresWhenLoaded') : formatDateTime(order.expiresAt),
      )}
      {item(t('orders.summary.prescriptionCharge'), formatPence(order.prescriptionCharge))}
      {item(t('orders.summary.retailCharge'), formatPence(order.retailCharge))}
      {item(t('orders.summary.amountPaid'), formatPence(order.amountPaid))}
      {item(t('orders.summary.payment'), paymentOf(order))}
      {item(t('orders.summary.exemption'), exemptionOf(order))}
      {item(t('orders.summary.patientMessages'), messagesOf(order))}
    </dl>
  );
}
