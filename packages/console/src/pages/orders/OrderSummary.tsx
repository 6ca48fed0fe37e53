import { counted, formatDateTime, formatPence, type Order, orderAmountDue } from '@medlocker/core';
import type { ReactNode } from 'react';
import { patientPaths } from '../../paths.ts';
import { Link } from '../../ui/Link.tsx';
import { displayIdOf } from '../patients/patient-format.ts';
import { OrderStatusBadge } from './OrderStatusBadge.tsx';
import { createdViaLabels, paymentStatusLabels } from './order-format.ts';

const item = (label: string, value: ReactNode) => (
  <div className="details__item">
    <dt>{label}</dt>
    <dd>{value === '' || value === null || value === undefined ? '—' : value}</dd>
  </div>
);

/** Who ended the order and when, from whichever stamp its final state left. */
function closedBy(order: Order): string | null {
  if (order.cancelled)
    return `Cancelled ${formatDateTime(order.cancelled.cancelledAt)} by ${order.cancelled.cancelledByDisplayName}`;
  if (order.markedCollected)
    return `Marked collected ${formatDateTime(order.markedCollected.changedAt)} by ${order.markedCollected.changedByDisplayName}`;
  if (order.markedRemoved)
    return `Marked removed ${formatDateTime(order.markedRemoved.changedAt)} by ${order.markedRemoved.changedByDisplayName}`;
  if (order.collected !== null) return `Collected at the locker ${formatDateTime(order.collected)}`;
  return null;
}

const deliveryLabels = { pending: 'Sent, not yet delivered', success: 'Delivered', failed: 'Failed' } as const;

/** How the patient's last messages fared (the providers' delivery reports), or why none go. */
function messagesOf(order: Order): string {
  if (order.messagesSuppressed) return 'Suppressed for this order';
  const parts = [
    order.lastNotificationStatus && `Text: ${deliveryLabels[order.lastNotificationStatus]}`,
    order.lastEmailStatus &&
      `Email to ${order.lastEmailStatus.address}: ${deliveryLabels[order.lastEmailStatus.status]}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'None sent yet';
}

/**
 * The payment status, with what is still owed when unpaid: an exemption declared on an order with a
 * retail charge too leaves the retail charge to pay.
 */
function paymentOf(order: Order): string {
  const label = paymentStatusLabels[order.paymentStatus];
  const due = orderAmountDue(order);
  if (order.paymentStatus !== 'unpaid' || due <= 0) return label;
  return `${label}: ${formatPence(due)} to pay${order.exemptionCode ? ' (the retail charge; the exemption covers the prescription charge)' : ''}`;
}

function exemptionOf(order: Order): string {
  if (!order.exemptionCode) return 'None';
  const d = order.exemptionDetails;
  if (!d) return order.exemptionCode;
  return `${order.exemptionCode}, declared by ${d.nameOfDeclarant}${d.onBehalfOfPatient ? ' on behalf of the patient' : ''}`;
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
      {item('Reference', order.reference)}
      {item('Status', <OrderStatusBadge order={order} />)}
      {closed && item('Finished', closed)}
      {item(
        'Patient',
        <Link href={patientPaths.patient(order.businessId, order.patientId)}>
          {order.patientName}
          {typeof displayId === 'string' && displayId ? ` (${displayIdOf(displayId)})` : ''}
        </Link>,
      )}
      {item('Barcode', order.barcode)}
      {item('Machine', order.machineName ?? machine?.machineName ?? 'Not chosen yet (the locker that loads it)')}
      {item('Location', machine?.location ?? (order.status === 'new' ? 'Not loaded yet' : ''))}
      {item('Machine sequence', order.machineSequence === null ? '' : String(order.machineSequence))}
      {item(
        'Created',
        `${formatDateTime(order.created)} via ${createdViaLabels[order.createdVia]}${creator ? ` by ${creator}` : ''}`,
      )}
      {item('Collection window', counted(order.collectionWindow, 'day'))}
      {item(
        'Expires',
        order.expiresAt === null ? 'When loaded, after the collection window' : formatDateTime(order.expiresAt),
      )}
      {item('Prescription charge', formatPence(order.prescriptionCharge))}
      {item('Retail charge', formatPence(order.retailCharge))}
      {item('Amount paid', formatPence(order.amountPaid))}
      {item('Payment', paymentOf(order))}
      {item('Exemption', exemptionOf(order))}
      {item('Patient messages', messagesOf(order))}
    </dl>
  );
}
