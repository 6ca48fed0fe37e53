import { readFile } from 'node:fs/promises';
import {
  CsvFileError,
  counted,
  csvFileMessages,
  decodeCsvBytes,
  fieldErrorsOf,
  isArkErrors,
  isEmptyRow,
  type OrderInput,
  OrderInput as OrderInputRule,
  type RowError,
  streamCsv,
} from '@medlocker/core';
import type { Command } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import { ApiError } from '../client.ts';
import { type CliIo, CliRefusal, commandContext, type GlobalOptions, UsageError } from '../context.ts';
import { normalisedPatientId, patientIdByDisplayId } from '../patient-ref.ts';
import { progressOf } from './patients-progress.tsx';

/** Orders on their way to the server at once: each is one small request. */
const CREATE_IN_FLIGHT = 4;

/** The columns an order CSV may have (header names, in any case); one of the two patient columns. */
export const orderCsvColumns = [
  'barcode',
  'patientId',
  'patientDisplayId',
  'machineId',
  'collectionWindow',
  'prescriptionCharge',
  'retailCharge',
] as const;
type OrderCsvColumn = (typeof orderCsvColumns)[number];

/** A checked row: what goes to orders/create, with the patient's display id still to look up if given so. */
export type OrderCsvRow = { row: number; input: OrderInput; patientDisplayId?: string };

/** Header name → column index, refusing unknown, repeated and missing columns (a command line to fix: exit 2). */
function columnsOf(header: readonly string[]): Map<OrderCsvColumn, number> {
  const byName = new Map(orderCsvColumns.map((c) => [c.toLowerCase(), c]));
  const found = new Map<OrderCsvColumn, number>();
  header.forEach((cell, i) => {
    const name = cell.trim();
    const column = byName.get(name.toLowerCase());
    if (!column) throw new UsageError(`Unknown column '${name}'. Columns: ${orderCsvColumns.join(', ')}`);
    if (found.has(column)) throw new UsageError(`The column '${column}' appears twice`);
    found.set(column, i);
  });
  if (!found.has('barcode')) throw new UsageError("The file needs a 'barcode' column");
  if (found.has('patientId') === found.has('patientDisplayId')) {
    throw new UsageError("The file needs one of the columns 'patientId' or 'patientDisplayId'");
  }
  return found;
}

/**
 * Reads an order CSV and checks every row with core's OrderInput (SPEC §5): the good rows to create,
 * and each bad row's number (as a spreadsheet shows it, the header being row 1) with its messages.
 * Blank optional cells are left out (the business's default window, no charge, no machine).
 */
export async function checkOrderCsv(
  text: string,
  businessId: string,
): Promise<{ good: OrderCsvRow[]; errors: RowError[]; rows: number }> {
  const records: { row: number; cells: string[] }[] = [];
  try {
    await streamCsv(text, (rows, first) => {
      rows.forEach((cells, i) => {
        records.push({ row: first + i, cells });
      });
    });
  } catch (error) {
    if (error instanceof CsvFileError) {
      throw new CliRefusal([error.message, ...error.problems.map((p) => `  ${p}`)].join('\n'));
    }
    throw error;
  }
  const [header, ...data] = records.filter((r) => !isEmptyRow(r.cells));
  if (!header || data.length === 0) throw new CliRefusal(csvFileMessages.noData);
  const columns = columnsOf(header.cells);
  const cell = (cells: string[], column: OrderCsvColumn) => {
    const i = columns.get(column);
    return i === undefined ? undefined : (cells[i] ?? '');
  };
  const byDisplayId = columns.has('patientDisplayId');
  const good: OrderCsvRow[] = [];
  const errors: RowError[] = [];
  for (const { row, cells } of data) {
    const patient = cell(cells, byDisplayId ? 'patientDisplayId' : 'patientId') ?? '';
    const input: OrderInput = { businessId, barcode: cell(cells, 'barcode') ?? '', patientId: patient };
    for (const column of ['machineId', 'collectionWindow', 'prescriptionCharge', 'retailCharge'] as const) {
      const value = cell(cells, column);
      if (value !== undefined && value.trim() !== '') Object.assign(input, { [column]: value.trim() });
    }
    const checked = OrderInputRule(input);
    if (isArkErrors(checked)) {
      const messages = fieldErrorsOf(checked).map((e) => {
        const path = e.path === 'patientId' && byDisplayId ? 'patientDisplayId' : e.path;
        return `${path}: ${e.message}`;
      });
      errors.push({ row, errors: messages });
      continue;
    }
    good.push(byDisplayId ? { row, input, patientDisplayId: patient.trim() } : { row, input });
  }
  return { good, errors, rows: data.length };
}

/** An API refusal of one row, in the API's words (SPEC §8), with each field's detail. */
const refusalOf = (error: ApiError): string[] =>
  error.details.length > 0 ? error.details.map((d) => `${d.path || 'input'}: ${d.message}`) : [error.message];

/** `medlocker orders import FILE --business B`. */
export function importOrdersCommand(orders: Command, io: CliIo): void {
  orders
    .command('import')
    .description(
      'Create orders from a CSV file: columns barcode, patientId or patientDisplayId, and optionally machineId, ' +
        'collectionWindow, prescriptionCharge, retailCharge (bad rows reported, good rows created)',
    )
    .argument('<file>', 'the CSV file (UTF-8, with or without BOM), its first line the column names')
    .requiredOption('--business <id|name>', 'the business the orders belong to: its id or its name')
    .action(async (file: string, options: { business: string }, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      let bytes: Uint8Array;
      try {
        bytes = await readFile(file);
      } catch {
        throw new UsageError(`Cannot read ${file}`);
      }
      const text = decodeCsvBytes(bytes).text;
      const client = ctx.client((await ctx.session()).token);
      const businessId = await businessIdOf(client, options.business);
      const { good, errors, rows } = await checkOrderCsv(text, businessId);

      const progress = progressOf(io, 'Creating', good.length, ctx.json);
      const created: { row: number; id: string; reference: string }[] = [];
      const patientIds = new Map<string, Promise<string | null>>();
      const createRow = async ({ row, input, patientDisplayId }: OrderCsvRow) => {
        try {
          let patientId = input.patientId;
          if (patientDisplayId !== undefined) {
            const key = normalisedPatientId(patientDisplayId);
            if (!patientIds.has(key)) patientIds.set(key, patientIdByDisplayId(client, businessId, patientDisplayId));
            const found = await (patientIds.get(key) as Promise<string | null>);
            if (!found) {
              errors.push({ row, errors: [`patientDisplayId: No current patient has the ID '${patientDisplayId}'`] });
              return;
            }
            patientId = found;
          }
          const { order } = await client.call('orders', 'create', { ...input, patientId });
          created.push({ row, id: order.id, reference: order.reference });
        } catch (error) {
          // A lost session stops the import; any other refusal (403 and 404 too: a patient or machine of
          // another business) is this row's problem.
          if (!(error instanceof ApiError) || error.status === 401) throw error;
          errors.push({ row, errors: refusalOf(error) });
        }
      };
      let next = 0;
      let done = 0;
      const worker = async () => {
        while (next < good.length) {
          const item = good[next++] as OrderCsvRow;
          await createRow(item);
          progress.update(++done);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CREATE_IN_FLIGHT, good.length) }, worker));
      progress.finish(done);

      errors.sort((a, b) => a.row - b.row);
      created.sort((a, b) => a.row - b.row);
      const headline = `Import complete: ${created.length} of ${counted(rows, 'order')} created`;
      const failed =
        errors.length === 0
          ? 'No errors.'
          : [
              `${counted(errors.length, 'row')} failed:`,
              ...errors.map((e) => `  Row ${e.row}: ${e.errors.join('; ')}`),
            ].join('\n');
      const result = { rows, created: created.length, failedRows: errors.length, errors, orders: created };
      // Rows that failed make the exit code 1, so a script notices; the summary goes with the refusal.
      if (errors.length > 0) throw new CliRefusal(`${headline}\n${failed}`, result);
      ctx.print({ ok: true, ...result }, () => `${headline}\n${failed}`);
    });
}
