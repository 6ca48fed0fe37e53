import { OrderInput } from '../order/order-input.ts';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import { CsvFileError, type CsvSource, csvFileMessages, streamCsv } from './csv-file.ts';
import { fieldByHeader, guessEachOnce } from './header-match.ts';
import type { RowError } from './patient-csv.ts';
import { isEmptyRow } from './patient-row.ts';

/** The fields an order CSV's columns may hold (the cli's header names); one of the two patient fields. */
export const orderCsvColumns = [
  'barcode',
  'patientId',
  'patientDisplayId',
  'machineId',
  'collectionWindow',
  'prescriptionCharge',
  'retailCharge',
] as const;
export type OrderCsvColumn = (typeof orderCsvColumns)[number];

/** What the console's mapping calls each field. */
export const orderCsvColumnLabels: Record<OrderCsvColumn, string> = {
  barcode: 'Barcode',
  patientId: 'Patient (internal id)',
  patientDisplayId: 'Patient ID',
  machineId: 'Machine (id)',
  collectionWindow: 'Collection window (days)',
  prescriptionCharge: 'Prescription charge (£)',
  retailCharge: 'Retail charge (£)',
};

/** Column index → the field it holds, or null when the column is ignored. */
export type OrderCsvMapping = (OrderCsvColumn | null)[];

/** A checked row: what goes to orders/create, with the patient's display id still to look up if given so. */
export type OrderCsvRow = { row: number; input: OrderInput; patientDisplayId?: string };

const orderAliases: Record<string, OrderCsvColumn> = {
  bagbarcode: 'barcode',
  bag: 'barcode',
  nhsnumber: 'patientDisplayId',
  nhsno: 'patientDisplayId',
  patient: 'patientDisplayId',
  id: 'patientDisplayId',
  machine: 'machineId',
  window: 'collectionWindow',
  collectionwindowdays: 'collectionWindow',
  charge: 'prescriptionCharge',
  retail: 'retailCharge',
};

/** A column's field by its header name (the cli's names, the console's labels, a few aliases), any case. */
export function orderCsvColumnOf(header: string): OrderCsvColumn | null {
  return fieldByHeader(header, orderCsvColumns, orderCsvColumnLabels, orderAliases);
}

/** A first guess at the mapping from a header line; each field used once (the console starts from it). */
export function guessOrderMapping(header: readonly string[]): OrderCsvMapping {
  return guessEachOnce(header, orderCsvColumnOf);
}

/**
 * Why a mapping cannot be imported yet: a field chosen twice, no barcode (unless the business generates
 * them), or not exactly one of the two patient fields. Empty when it can.
 */
export function checkOrderMapping(mapping: OrderCsvMapping, options: { barcodeOptional?: boolean } = {}): string[] {
  const problems: string[] = [];
  const seen = new Set<OrderCsvColumn>();
  for (const column of mapping) {
    if (!column) continue;
    if (seen.has(column)) problems.push(`${orderCsvColumnLabels[column]} is chosen for more than one column`);
    seen.add(column);
  }
  if (!seen.has('barcode') && !options.barcodeOptional) problems.push('Choose the column that holds the Barcode');
  if (seen.has('patientId') === seen.has('patientDisplayId')) {
    problems.push(
      `Choose one column for the patient: ${orderCsvColumnLabels.patientDisplayId} or ${orderCsvColumnLabels.patientId}`,
    );
  }
  return problems;
}

/** How rows are read into orders: their business, and the barcode to give a row that has none (if any). */
export type OrderRowOptions = { businessId: string; generateBarcode?: () => string };

/**
 * One data row checked with core's OrderInput (SPEC §5 words, each prefixed with its field's column name):
 * the input for orders/create, or the row's errors. Blank optional cells are left out (the business's
 * default window, no charge, no machine); a blank barcode is generated when `generateBarcode` is given.
 */
export function checkOrderRow(
  cells: readonly string[],
  row: number,
  mapping: OrderCsvMapping,
  options: OrderRowOptions,
): { order: OrderCsvRow } | { error: RowError } {
  const cell = (column: OrderCsvColumn) => {
    const i = mapping.indexOf(column);
    return i < 0 ? undefined : (cells[i] ?? '').trim();
  };
  const byDisplayId = mapping.includes('patientDisplayId');
  const patient = cell(byDisplayId ? 'patientDisplayId' : 'patientId') ?? '';
  let barcode = cell('barcode') ?? '';
  if (barcode === '' && options.generateBarcode) barcode = options.generateBarcode();
  const input: OrderInput = { businessId: options.businessId, barcode, patientId: patient };
  for (const column of ['machineId', 'collectionWindow', 'prescriptionCharge', 'retailCharge'] as const) {
    const value = cell(column);
    if (value !== undefined && value !== '') Object.assign(input, { [column]: value });
  }
  const checked = OrderInput(input);
  if (isArkErrors(checked)) {
    const errors = fieldErrorsOf(checked).map((e) => {
      const path = e.path === 'patientId' && byDisplayId ? 'patientDisplayId' : e.path;
      return `${path}: ${e.message}`;
    });
    return { error: { row, errors } };
  }
  return { order: byDisplayId ? { row, input, patientDisplayId: patient } : { row, input } };
}

/** A CSV record with its row number as a spreadsheet shows it. */
export type CsvRecord = { row: number; cells: string[] };

/** Every non-empty record of a CSV, numbered; a file with none is refused (SPEC §4 'contains no data'). */
export async function readCsvRecords(source: CsvSource): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  await streamCsv(source, (rows, first) => {
    rows.forEach((cells, i) => {
      if (!isEmptyRow(cells)) records.push({ row: first + i, cells });
    });
  });
  if (records.length === 0) throw new CsvFileError(csvFileMessages.noData);
  return records;
}

/** Checks every data row: the good ones to create, each bad one's number and messages. */
export function checkOrderRows(
  records: readonly CsvRecord[],
  mapping: OrderCsvMapping,
  options: OrderRowOptions,
): { good: OrderCsvRow[]; errors: RowError[] } {
  const good: OrderCsvRow[] = [];
  const errors: RowError[] = [];
  for (const { row, cells } of records) {
    const checked = checkOrderRow(cells, row, mapping, options);
    if ('order' in checked) good.push(checked.order);
    else errors.push(checked.error);
  }
  return { good, errors };
}

/** A patient ID as people type it: spaces and case aside ("943 476 5919" is "9434765919"). */
export const normalisedPatientId = (id: string) => id.replace(/\s+/g, '').toLowerCase();

/** The row error for a patient ID no current patient of the business has. */
export const unknownPatientError = (displayId: string) =>
  `patientDisplayId: No current patient has the ID '${displayId}'`;

type PatientPage = { patients: { id: string; displayId: string }[]; nextToken: string | null };

/**
 * The internal id of the business's current patient whose Patient ID is `displayId`, spaces and case
 * aside, or null: patients/list's prefix filter (`list`, the caller's RPC), then the exact match.
 */
export async function patientIdByDisplayId(
  list: (input: {
    businessId: string;
    filter: string;
    onlyCurrent: true;
    limit: number;
    nextToken?: string;
  }) => Promise<PatientPage>,
  businessId: string,
  displayId: string,
): Promise<string | null> {
  const wanted = normalisedPatientId(displayId);
  let nextToken: string | null = null;
  do {
    const page: PatientPage = await list({
      businessId,
      filter: displayId,
      onlyCurrent: true,
      limit: 200,
      ...(nextToken ? { nextToken } : {}),
    });
    const match = page.patients.find((p) => normalisedPatientId(p.displayId) === wanted);
    if (match) return match.id;
    nextToken = page.nextToken;
  } while (nextToken);
  return null;
}

/** A server's refusal of one row, in its words (SPEC §8), each field's detail prefixed with the field. */
export const rowRefusalOf = (error: { message: string; details: readonly { path: string; message: string }[] }) =>
  error.details.length > 0 ? error.details.map((d) => `${d.path || 'input'}: ${d.message}`) : [error.message];
