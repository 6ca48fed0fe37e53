import { csvText } from '../csv/csv-text.ts';
import { formatDateTime } from '../format/date.ts';
import { formatPence } from '../format/money.ts';
import type { Order } from './order.ts';
import type { PaymentStatus } from './statuses.ts';
import { type OrderDisplayStatus, orderDisplayStatus } from './transitions.ts';

/** The columns of an order list's CSV export: what the list shows, with the charges and how it was made. */
export const ordersCsvColumns = [
  'Reference',
  'Patient',
  'Barcode',
  'Machine',
  'Status',
  'Payment',
  'Prescription charge',
  'Retail charge',
  'Created',
  'Expires',
  'Created via',
] as const;

/** The words for SPEC §4's statuses and the derived Expired, in the export and the console's filters and badges. */
export const orderStatusLabels: Record<OrderDisplayStatus, string> = {
  new: 'New',
  loaded: 'Loaded',
  expired: 'Expired',
  collected: 'Collected',
  removed: 'Removed',
  cancelled: 'Cancelled',
};

/** The words for an order's payment status, in the export and the console. */
export const paymentStatusLabels: Record<PaymentStatus, string> = {
  not_required: 'Not required',
  unpaid: 'Unpaid',
  paid: 'Paid',
  exemption_declared: 'Exemption declared',
};

/** One order's cells, SPEC §9 formatted (London date and time, pounds with 2 decimals); Expired as of `now`. */
export function orderCsvCells(order: Order, now: number): string[] {
  return [
    order.reference,
    order.patientName,
    order.barcode,
    order.machineName ?? '',
    orderStatusLabels[orderDisplayStatus(order, now)],
    paymentStatusLabels[order.paymentStatus],
    formatPence(order.prescriptionCharge),
    formatPence(order.retailCharge),
    formatDateTime(order.created),
    order.expiresAt === null ? '' : formatDateTime(order.expiresAt),
    order.createdVia,
  ];
}

/**
 * The CSV of orders in the order given (csvText: a patient's name or a barcode is quoted and never run
 * as a formula in a spreadsheet).
 */
export const ordersCsv = (orders: readonly Order[], now: number): string =>
  csvText(
    ordersCsvColumns,
    orders.map((o) => orderCsvCells(o, now)),
  );
