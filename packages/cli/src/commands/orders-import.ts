import { readFile } from 'node:fs/promises';
import {
  CsvFileError,
  type CsvRecord,
  checkOrderRows,
  counted,
  csvFileMessages,
  decodeCsvBytes,
  type OrderCsvMapping,
  type OrderCsvRow,
  orderCsvColumns,
  type RowError,
  readCsvRecords,
  rowRefusalOf,
  unknownPatientError,
} from '@medlocker/core';
import type { Command } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import { ApiError } from '../client.ts';
import { type CliIo, CliRefusal, commandContext, type GlobalOptions, UsageError } from '../context.ts';
import { normalisedPatientId, patientIdByDisplayId } from '../patient-ref.ts';
import { progressOf } from './patients-progress.tsx';

/** Orders on their way to the server at once: each is one small request. */
const CREATE_IN_FLIGHT = 4;

/** Header name → column, refusing unknown, repeated and missing columns (a command line to fix: exit 2). */
function mappingOf(header: readonly string[]): OrderCsvMapping {
  const mapping: OrderCsvMapping = header.map((cell) => {
    const name = cell.trim();
    const column = orderCsvColumns.find((c) => c.toLowerCase() === name.toLowerCase());
    if (!column) throw new UsageError(`Unknown column '${name}'. Columns: ${orderCsvColumns.join(', ')}`);
    return column;
  });
  const twice = mapping.find((c, i) => mapping.indexOf(c) !== i);
  if (twice) throw new UsageError(`The column '${twice}' appears twice`);
  if (!mapping.includes('barcode')) throw new UsageError("The file needs a 'barcode' column");
  if (mapping.includes('patientId') === mapping.includes('patientDisplayId')) {
    throw new UsageError("The file needs one of the columns 'patientId' or 'patientDisplayId'");
  }
  return mapping;
}

/**
 * Reads an order CSV and checks every row with core's order CSV rules (SPEC §5): the good rows to create,
 * and each bad row's number (as a spreadsheet shows it, the header being row 1) with its messages.
 */
export async function checkOrderCsv(
  text: string,
  businessId: string,
): Promise<{ good: OrderCsvRow[]; errors: RowError[]; rows: number }> {
  let records: CsvRecord[];
  try {
    records = await readCsvRecords(text);
  } catch (error) {
    if (error instanceof CsvFileError) {
      throw new CliRefusal([error.message, ...error.problems.map((p) => `  ${p}`)].join('\n'));
    }
    throw error;
  }
  const [header, ...data] = records;
  if (!header || data.length === 0) throw new CliRefusal(csvFileMessages.noData);
  const { good, errors } = checkOrderRows(data, mappingOf(header.cells), { businessId });
  return { good, errors, rows: data.length };
}

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
              errors.push({ row, errors: [unknownPatientError(patientDisplayId)] });
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
          errors.push({ row, errors: rowRefusalOf(error) });
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
