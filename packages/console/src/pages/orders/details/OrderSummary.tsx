import { formatDateTime, formatPence, type Order, orderAmountDue } from '@medlocker/core';
import { patientPaths } from '../../../paths.ts';
import { Link } from '../../../ui/Link.tsx';
import { displayIdOf } from '../../patients/patient-format.ts';
import { OrderStatusBadge } from '../OrderStatusBadge.tsx';
import { createdViaLabel, paymentStatusLabel } from '../order-format.ts';
import { t } from './i18n/index.ts';
import { orderItem as item } from './order-item.tsx';

/** Who ended the order and when, from whichever stamp its final state left. */
function closedBy(order: Order): string | null {
  const { cancelled, markedCollected, markedRemoved } = order;
  if (cancelled)
    return t('orderPage.summary.cancelledBy', {
      at: formatDateTime(cancelled.cancelledAt),
      by: cancelled.cancelledByDisplayName,
    });
  if (markedCollected)
    return t('orderPage.summary.markedCollectedBy', {
      at: formatDateTime(markedCollected.changedAt),
      by: markedCollected.changedByDisplayName,
    });
  if (markedRemoved)
    return t('orderPage.summary.markedRemovedBy', {
      at: formatDateTime(markedRemoved.changedAt),
      by: markedRemoved.changedByDisplayName,
    });
  if (order.collected !== null)
    return t('orderPage.summary.collectedAtLocker', { at: formatDateTime(order.collected) });
  return null;
}

const deliveryOf = (status: 'pending' | 'success' | 'failed') => t(`orderPage.summary.delivery.${status}` as const);

/** How the patient's last messages fared (the providers' delivery reports), or why none go. */
function messagesOf(order: Order): string {
  if (order.messagesSuppressed) return t('orderPage.summary.messagesSuppressed');
  const parts = [
    order.lastNotificationStatus &&
      t('orderPage.summary.messageText', { delivery: deliveryOf(order.lastNotificationStatus) }),
    order.lastEmailStatus &&
      t('orderPage.summary.messageEmail', {
        address: order.lastEmailStatus.address,
        delivery: deliveryOf(order.lastEmailStatus.status),
      }),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : t('orderPage.summary.noMessages');
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
  return order.exemptionCode ? t('orderPage.summary.toPayRetail', values) : t('orderPage.summary.toPay', values);
}

function exemptionOf(order: Order): string {
  if (!order.exemptionCode) return t('orderPage.summary.noExemption');
  const d = order.exemptionDetails;
  if (!d) return order.exemptionCode;
  const values = { code: order.exemptionCode, name: d.nameOfDeclarant };
  return d.onBehalfOfPatient
    ? t('orderPage.summary.declaredByOnBehalf', values)
    : t('orderPage.summary.declaredBy', values);
}

/** When, how and (when the created event names them) by whom the order was created. */
function createdOf(order: Order, creator: string | undefined): string {
  const values = { at: formatDateTime(order.created), via: createdViaLabel(order.createdVia) };
  return creator
    ? t('orderPage.summary.createdViaBy', { ...values, creator })
    : t('orderPage.summary.createdVia', values);
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
      {item(t('orderPage.summary.reference'), order.reference)}
      {item(t('orderPage.summary.status'), <OrderStatusBadge order={order} />)}
      {closed && item(t('orderPage.summary.finished'), closed)}
      {item(
        t('orderPage.summary.patient'),
        <Link href={patientPaths.patient(order.businessId, order.patientId)}>
          {order.patientName}
          {typeof displayId === 'string' && displayId ? ` (${displayIdOf(displayId)})` : ''}
        </Link>,
      )}
      {item(t('orderPage.summary.barcode'), order.barcode)}
      {item(
        t('orderPage.summary.machine'),
        order.machineName ?? machine?.machineName ?? t('orderPage.summary.machineNotChosen'),
      )}
      {item(
        t('orderPage.summary.location'),
        machine?.location ?? (order.status === 'new' ? t('orderPage.summary.notLoaded') : ''),
      )}
      {item(
        t('orderPage.summary.machineSequence'),
        order.machineSequence === null ? '' : String(order.machineSequence),
      )}
      {item(t('orderPage.summary.created'), createdOf(order, creator))}
      {item(t('orderPage.summary.collectionWindow'), t('orderPage.summary.days', { count: order.collectionWindow }))}
      {item(
        t('orderPage.summary.expires'),
        order.expiresAt === null ? t('orderPage.summary.expiresWhenLoaded') : formatDateTime(order.expiresAt),
      )}
      {item(t('orderPage.summary.prescriptionCharge'), formatPence(order.prescriptionCharge))}
      {item(t('orderPage.summary.retailCharge'), formatPence(order.retailCharge))}
      {item(t('orderPage.summary.amountPaid'), formatPence(order.amountPaid))}
      {item(t('orderPage.summary.payment'), paymentOf(order))}
      {item(t('orderPage.summary.exemption'), exemptionOf(order))}
      {item(t('orderPage.summary.patientMessages'), messagesOf(order))}
    </dl>
  );
}
