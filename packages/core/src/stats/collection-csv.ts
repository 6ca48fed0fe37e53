import { csvText } from '../csv/csv-text.ts';
import { formatDateTime } from '../format/date.ts';
import { formatPence } from '../format/money.ts';
import type { CollectionRecord } from '../order/order.ts';

/** The columns of the collection records, as the stats page's table and its CSV export name them. */
export const collectionRecordColumns = [
  'Reference',
  'Patient',
  'Collected',
  'Amount paid',
  'Prescription charge',
  'Retail charge',
  'Exemption',
  'Auto exempt',
  'PIN revealed',
] as const;

const yesNo = (b: boolean) => (b ? 'Yes' : 'No');

/** One record's cells, SPEC §9 formatted: London date and time, pounds with 2 decimals. */
export function collectionRecordCells(r: CollectionRecord): string[] {
  return [
    r.reference,
    r.patientName,
    r.collected === null ? '' : formatDateTime(r.collected),
    formatPence(r.amountPaid),
    formatPence(r.prescriptionCharge),
    formatPence(r.retailCharge),
    r.exemptionCode ?? '',
    yesNo(r.autoExempt),
    yesNo(r.pinRevealed),
  ];
}

/**
 * The CSV of collection records (csvText: a patient's name is quoted and never run as a formula), one
 * line per record in the order given.
 */
export const collectionRecordsCsv = (records: readonly CollectionRecord[]): string =>
  csvText(collectionRecordColumns, records.map(collectionRecordCells));
