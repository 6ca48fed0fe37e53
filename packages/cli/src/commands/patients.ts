import { readFile, writeFile } from 'node:fs/promises';
import {
  bodySizedParts,
  type CsvCell,
  CsvFileError,
  type CsvInspection,
  type CsvMapping,
  checkMapping,
  counted,
  csvText,
  decodeCsvBytes,
  guessMapping,
  type ImportedPatient,
  importPatientCsv,
  inspectCsv,
  type Patient,
  patientRowCount,
  type RowError,
} from '@medlocker/core';
import { type Command, Option } from 'commander';
import { businessIdOf } from '../business-ref.ts';
import type { Client } from '../client.ts';
import { type CliIo, CliRefusal, type CommandContext, contextOf, UsageError } from '../context.ts';
import { patientDataCommands } from './patient-data.ts';
import {
  defaultErrorsPath,
  parseMapFlag,
  parseMappingFile,
  resolveMapping,
  type SavedMapping,
} from './patients-csv.ts';
import { type Progress, progressOf } from './patients-progress.tsx';

type ImportOptions = {
  business: string;
  firstLine?: 'data' | 'fields';
  map?: string;
  mapping?: string;
  saveMapping?: string;
  dryRun?: boolean;
  errors?: string;
};

/** Batches on their way to the server at once. */
const IMPORT_IN_FLIGHT = 2;

/** The file's text: UTF-8, or Windows-1252 when it is not valid UTF-8 (Excel's plain CSV), as the console reads it. */
async function readText(path: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch {
    throw new UsageError(`Cannot read ${path}`);
  }
  return decodeCsvBytes(bytes).text;
}

/** `work`'s answer; a file SPEC §8 refuses (CsvFileError) becomes a refusal: its message, then each problem. */
async function refusingFileErrors<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CsvFileError) {
      throw new CliRefusal([error.message, ...error.problems.map((p) => `  ${p}`)].join('\n'));
    }
    throw error;
  }
}

/**
 * The mapping asked for, checked with SPEC §5's mapping rules (a refused mapping is a usage error), and
 * the number of patient rows. A file holding only its field names is refused before any mapping is
 * asked for, as an empty file is.
 */
async function mappingOf(options: ImportOptions, inspection: CsvInspection) {
  const { fieldCount, firstRow } = inspection;
  if (options.map && options.mapping) throw new UsageError('Give --map or --mapping, not both');
  const saved: SavedMapping | undefined = options.mapping
    ? parseMappingFile(await readText(options.mapping), options.mapping)
    : options.map
      ? { columns: parseMapFlag(options.map) }
      : undefined;
  const firstLine = options.firstLine ?? saved?.firstLine ?? 'fields';
  const total = await refusingFileErrors(() => patientRowCount(inspection, firstLine));
  if (!saved) {
    const howToMap = 'Map the columns with --map "0=NhsNumber,1=GivenName,…" or --mapping FILE.json.';
    if (firstLine === 'fields') {
      // As the console's mapping screen does: each column mapped by its field name ('NHS Number', 'DOB'…).
      const guessed = guessMapping(firstRow);
      const problems = checkMapping(guessed);
      const shown = firstRow.map((cell, i) => `${i}=${cell} → ${guessed[i] ?? '(ignored)'}`).join(', ');
      if (problems.length > 0) {
        throw new UsageError(
          `The columns could not be mapped by their names (${shown}):\n  ${problems.join('\n  ')}\n${howToMap}`,
        );
      }
      return { firstLine, mapping: guessed, total, guessed: shown };
    }
    throw new UsageError(`${howToMap} This file's columns: ${firstRow.map((_, i) => `${i}`).join(', ')}`);
  }
  const mapping = resolveMapping(saved.columns, fieldCount, firstLine === 'fields' ? firstRow : undefined);
  const problems = checkMapping(mapping);
  if (problems.length > 0) throw new UsageError(`The mapping cannot be imported:\n  ${problems.join('\n  ')}`);
  return { firstLine, mapping, total, guessed: undefined };
}

async function saveMapping(path: string, firstLine: 'data' | 'fields', mapping: CsvMapping, header: string[]) {
  const columns: Record<string, string> = {};
  mapping.forEach((kind, i) => {
    if (kind) columns[firstLine === 'fields' && header[i] ? (header[i] as string) : String(i)] = kind;
  });
  await writeFile(path, `${JSON.stringify({ firstLine, columns }, null, 2)}\n`);
}

async function writeErrors(path: string, errors: RowError[]) {
  const csv = csvText(
    ['Row', 'Error'],
    errors.map((e) => [e.row, e.errors.join('; ')]),
  );
  // The messages quote the bad values (SPEC §5), so the report is as private as the file it came from.
  await writeFile(path, csv, { mode: 0o600 });
}

/** `medlocker patients import | export | erase | export-data`. */
export function patientsCommands(program: Command, io: CliIo): void {
  const patients = program
    .command('patients')
    .description("A business's patients: CSV import and export, erasure and a patient's data");
  importCommand(patients, io);
  exportCommand(patients, io);
  patientDataCommands(patients, io);
}

function importCommand(patients: Command, io: CliIo): void {
  patients
    .command('import')
    .description('Import patients from a CSV file, checking each row (bad rows reported, good rows imported)')
    .argument('<file>', 'the CSV file (UTF-8, with or without BOM)')
    .requiredOption('--business <id|name>', 'the business the patients belong to: its id or its name')
    .addOption(
      new Option('--first-line <kind>', 'the first line holds patient data or field names (default: fields)').choices([
        'data',
        'fields',
      ]),
    )
    .option('--map <pairs>', 'column=field pairs: "0=NhsNumber,1=GivenName" or "NHS Number=NhsNumber,…"')
    .option('--mapping <file>', 'a saved mapping: {"firstLine":"fields","columns":{"NHS Number":"NhsNumber",…}}')
    .option('--save-mapping <file>', 'save the mapping used, for next time')
    .option('--dry-run', 'check the file and mapping only; send nothing')
    .option('--errors <file>', 'where to write the error report (default: FILE.errors.csv beside the input)')
    .action(async (file: string, options: ImportOptions, command: Command) => {
      const ctx = contextOf(io, command);
      const text = await readText(file);
      const inspection = await refusingFileErrors(() => inspectCsv(text, { sampleSize: 0 }));
      const { firstLine, mapping, total, guessed } = await mappingOf(options, inspection);
      if (guessed) io.stderr(`Columns mapped by their names: ${guessed}\n`);
      if (options.saveMapping) await saveMapping(options.saveMapping, firstLine, mapping, inspection.firstRow);
      const client = options.dryRun ? undefined : ctx.client((await ctx.session()).token);
      const businessId = client ? await businessIdOf(client, options.business) : options.business;
      const progress = progressOf(io, options.dryRun ? 'Checking' : 'Importing', total, ctx.json);
      const to = client ? { client, businessId } : undefined;
      const outcome = await sendPatients(io, text, { firstLine, mapping }, to, progress);
      await reportImport(ctx, file, options, outcome);
    });
}

type ImportOutcome = {
  summary: Awaited<ReturnType<typeof importPatientCsv>>;
  errors: RowError[];
  counts: { created: number; updated: number; unchanged: number; checked: number };
};

/**
 * Parses and checks the file batch by batch and, unless it is a dry run (`to` undefined), upserts each
 * batch while the next is read. Ctrl-C on a terminal stops reading; what was sent stays sent.
 */
async function sendPatients(
  io: CliIo,
  text: string,
  plan: { firstLine: 'data' | 'fields'; mapping: CsvMapping },
  to: { client: Client; businessId: string } | undefined,
  progress: Progress,
): Promise<ImportOutcome> {
  const errors: RowError[] = [];
  const counts = { created: 0, updated: 0, unchanged: 0, checked: 0 };
  const controller = new AbortController();
  const cancel = () => controller.abort();
  if (io.interactive) process.once('SIGINT', cancel);
  // Up to IMPORT_IN_FLIGHT batches on their way: the server writes one while it reads the next, and
  // this process parses and checks meanwhile.
  const inFlight = new Set<Promise<void>>();
  const upsertPart = async (send: ImportedPatient[], rows: number[]): Promise<void> => {
    const result = await to?.client.call('patients', 'batchUpsertPatients', {
      businessId: to.businessId,
      patients: send,
    });
    if (!result) return;
    for (const r of result.results) {
      if (r.status === 'invalid') errors.push({ row: rows[r.index] as number, errors: r.errors ?? [] });
    }
    counts.created += result.created;
    counts.updated += result.updated;
    counts.unchanged += result.unchanged;
  };
  let shownDone = 0; // batches can finish out of order; the bar only moves forward
  const upsert = async (send: ImportedPatient[], rows: number[], rowsDone: number) => {
    // The API takes bodies up to 1 MB: a batch of unusually long rows goes in parts.
    for (const [from, upTo] of to ? bodySizedParts(send) : []) {
      await upsertPart(send.slice(from, upTo), rows.slice(from, upTo));
    }
    shownDone = Math.max(shownDone, rowsDone);
    progress.update(shownDone);
  };
  let summary: ImportOutcome['summary'];
  try {
    summary = await importPatientCsv(text, {
      ...plan,
      signal: controller.signal,
      onBatch: async (batch) => {
        // Core's errors include an ID repeated anywhere earlier in the file, as the console's do.
        errors.push(...batch.errors);
        counts.checked += batch.patients.length;
        while (inFlight.size >= IMPORT_IN_FLIGHT) await Promise.race(inFlight);
        const sending: Promise<void> = upsert(batch.patients, batch.rows, batch.rowsDone).finally(() =>
          inFlight.delete(sending),
        );
        sending.catch(() => {}); // surfaced by the next race or the final wait, not as an unhandled rejection
        inFlight.add(sending);
      },
    });
    await Promise.all(inFlight);
  } finally {
    process.removeListener('SIGINT', cancel);
  }
  progress.finish(summary.rowsDone);
  return { summary, errors, counts };
}

/** The summary, and the error report (FILE.errors.csv beside the file unless --errors names one). */
async function reportImport(ctx: CommandContext, file: string, options: ImportOptions, outcome: ImportOutcome) {
  const { summary, errors, counts } = outcome;
  errors.sort((a, b) => a.row - b.row);
  const errorsFile = errors.length > 0 ? (options.errors ?? defaultErrorsPath(file)) : null;
  if (errorsFile) await writeErrors(errorsFile, errors);
  const processed = options.dryRun ? counts.checked : counts.created + counts.updated + counts.unchanged;
  const headline = options.dryRun
    ? `Dry run: ${counted(summary.rowsDone, 'row')} checked, ${counted(counts.checked, 'patient')} would be sent; nothing was sent`
    : `${summary.cancelled ? 'Import cancelled' : 'Import complete'}: ${counted(processed, 'patient')} processed` +
      ` (created ${counts.created}, updated ${counts.updated}, unchanged ${counts.unchanged})`;
  const failed = errorsFile ? `${counted(errors.length, 'row')} failed; errors written to ${errorsFile}` : 'No errors.';
  const result = {
    ok: errors.length === 0 && !summary.cancelled,
    dryRun: options.dryRun === true,
    cancelled: summary.cancelled,
    rows: summary.rowsDone,
    processed,
    ...(options.dryRun ? {} : { created: counts.created, updated: counts.updated, unchanged: counts.unchanged }),
    failedRows: errors.length,
    errorsFile,
  };
  // Rows that failed make the exit code 1, so a script notices; with --json the counts and each failed
  // row (its number and messages) go with the refusal as data, not only in the prose.
  if (!result.ok) throw new CliRefusal(`${headline}\n${failed}`, { ...result, errors });
  ctx.print(result, () => `${headline}\n${failed}`);
}

function exportCommand(patients: Command, io: CliIo): void {
  patients
    .command('export')
    .description("Export a business's current patients as CSV (re-importable; formula-like cells neutralised)")
    .requiredOption('--business <id|name>', 'the business: its id or its name')
    .option('--out <file>', 'write to this file (created 0600) instead of standard output')
    .option('--include-deleted', 'include soft-deleted patients, with a Deleted column')
    .action(async (options: { business: string; out?: string; includeDeleted?: boolean }, command: Command) => {
      const ctx = contextOf(io, command);
      if (ctx.json && !options.out) throw new UsageError('--json prints a summary: give --out for the CSV');
      const client = ctx.client((await ctx.session()).token);
      const businessId = await businessIdOf(client, options.business);
      const header = [
        'ID',
        'Full Name',
        'Date of Birth',
        'Mobile',
        'Email',
        'Address 1',
        'Address 2',
        'Address 3',
        'Town',
        'Postcode',
      ];
      const rows: CsvCell[][] = [];
      let nextToken: string | null = null;
      let count = 0;
      do {
        const page: { patients: Patient[]; nextToken: string | null } = await client.call('patients', 'list', {
          businessId,
          onlyCurrent: !options.includeDeleted,
          limit: 200,
          nextToken,
        });
        for (const p of page.patients) {
          const cells = [
            p.displayId,
            p.name,
            p.dateOfBirth,
            // 07… rather than +447…: a leading + is a formula to a spreadsheet, and the import reads both.
            p.mobileNumber?.replace(/^\+44/, '0'),
            p.email,
            p.address?.line1,
            p.address?.line2,
            p.address?.line3,
            p.address?.postTown,
            p.address?.postcode,
          ];
          rows.push(options.includeDeleted ? [...cells, p.deleted ? 'yes' : ''] : cells);
        }
        count += page.patients.length;
        nextToken = page.nextToken;
        if (options.out && io.interactive && !ctx.json) io.stderr(`\rExported ${count} patients…`);
      } while (nextToken);
      const csv = csvText(options.includeDeleted ? [...header, 'Deleted'] : header, rows);
      if (options.out) {
        await writeFile(options.out, csv, { mode: 0o600 });
        if (io.interactive && !ctx.json) io.stderr('\r\x1b[K');
        ctx.print(
          { exported: count, file: options.out },
          () => `Exported ${counted(count, 'patient')} to ${options.out}`,
        );
      } else {
        io.stdout(csv);
      }
    });
}
