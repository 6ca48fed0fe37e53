import Papa from 'papaparse';
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
 * The CSV of collection records: a header line, then one line per record in the order given, CRLF
 * line ends (RFC 4180). A cell starting with = + - @ is prefixed with ' so a spreadsheet shows a
 * patient's name as text rather than running it as a formula.
 */
export function collectionRecordsCsv(records: readonly CollectionRecord[]): string {
  const rows = records.map((r) => collectionRecordCells(r).map(defuseCell));
  return `${Papa.unparse([[...collectionRecordColumns], ...rows], { newline: '\r\n' })}\r\n`;
}

/** A cell starting with = + - @ (or a tab or CR) gets a ' first: a spreadsheet shows it as text. */
export const defuseCell = (cell: string) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell);
