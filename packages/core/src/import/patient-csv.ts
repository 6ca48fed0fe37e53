import type { ImportedPatient } from '../patient/imported-patient.ts';
import { londonIsoDate } from '../validation/general.ts';
import { CsvFileError, type CsvSource, csvFileMessages, streamCsv } from './csv-file.ts';
import { type CsvMapping, checkMapping, planOf } from './mapping.ts';
import { checkPatientRow, isEmptyRow, rowMessages } from './patient-row.ts';

/** SPEC §9: patients go to the server 1024 rows at a time. */
export const IMPORT_BATCH_ROWS = 1024;
const MAX_LISTED_PROBLEMS = 50;

export type CsvInspection = {
  /** Fields in every row (from the first row). */
  fieldCount: number;
  /** Records holding anything, the first row included. */
  nonEmptyRows: number;
  /** The first non-empty record: field names, or the first patient. */
  firstRow: string[];
  /** Up to `sampleSize` rows after the first, drawn at random across the whole file. */
  sample: string[][];
};

/**
 * The "parse" step of the import flow: reads the whole file once, checks that every row has the first
 * row's number of fields (papaparse's "Too few fields" / "Too many fields" words) and that there is
 * data at all, and keeps a random sample of rows for the mapping screen.
 * Throws {@link CsvFileError} with the SPEC §8 message.
 */
export async function inspectCsv(
  source: CsvSource,
  options: { sampleSize?: number; random?: () => number } = {},
): Promise<CsvInspection> {
  const sampleSize = options.sampleSize ?? 50;
  const random = options.random ?? Math.random;
  const problems: string[] = [];
  let problemCount = 0;
  let fieldCount = 0;
  let firstRow: string[] | undefined;
  let nonEmptyRows = 0;
  const sample: string[][] = [];
  await streamCsv(source, (rows, first) => {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as string[];
      if (isEmptyRow(row)) continue;
      nonEmptyRows++;
      if (!firstRow) {
        firstRow = row;
        fieldCount = row.length;
        continue;
      }
      if (row.length !== fieldCount) {
        problemCount++;
        if (problems.length < MAX_LISTED_PROBLEMS) {
          const kind = row.length < fieldCount ? 'Too few fields' : 'Too many fields';
          problems.push(`Row ${first + i}: ${kind}: expected ${fieldCount} fields but parsed ${row.length}`);
        }
      }
      // Reservoir sampling: every data row has the same chance to be shown, in one pass.
      const seen = nonEmptyRows - 1;
      if (sample.length < sampleSize) sample.push(row);
      else {
        const j = Math.floor(random() * seen);
        if (j < sampleSize) sample[j] = row;
      }
    }
  });
  if (!firstRow) throw new CsvFileError(csvFileMessages.noData);
  if (problemCount > 0) {
    if (problemCount > problems.length) problems.push(`… and ${problemCount - problems.length} more rows`);
    throw new CsvFileError(csvFileMessages.parsing, problems);
  }
  return { fieldCount, nonEmptyRows, firstRow, sample };
}

/**
 * The patient rows of an inspected file once the person has said what its first line is: with
 * 'Field names' the first line is not a patient, so a file holding only its field names has none and
 * is refused as SPEC §4 refuses an empty file, in the same words.
 * Throws {@link CsvFileError} ('The selected file contains no data.').
 */
export function patientRowCount(inspection: CsvInspection, firstLine: 'data' | 'fields'): number {
  const rows = inspection.nonEmptyRows - (firstLine === 'fields' ? 1 : 0);
  if (rows <= 0) throw new CsvFileError(csvFileMessages.noData);
  return rows;
}

export type RowError = { row: number; errors: string[] };
export type ImportBatch = {
  patients: ImportedPatient[];
  /** Spreadsheet row number of each patient, for reporting the server's outcome per row. */
  rows: number[];
  errors: RowError[];
  /** Data rows checked so far, good and bad. */
  rowsDone: number;
};

export type ImportOptions = {
  firstLine: 'data' | 'fields';
  mapping: CsvMapping;
  /** Receives each batch of up to 1024 checked rows; parsing waits for it (backpressure). */
  onBatch: (batch: ImportBatch) => void | Promise<void>;
  signal?: AbortSignal;
  batchRows?: number;
  /** Today's date YYYY-MM-DD; dates of birth after it are refused. Defaults to today in London. */
  today?: string;
};

/**
 * A set of strings for the whole-file duplicate check, kept in typed arrays: open addressing on a
 * 32-bit FNV-1a hash, each id's UTF-16 code units copied into one pool and compared there on a hash
 * match. A JavaScript Set of the 100,000 ids of the bench file cost the import pass 101 → 158–162 ms on
 * JavaScriptCore; this costs 101 → 119–123 ms (docs/PERFORMANCE.md), about one cache miss a row.
 */
export class IdSet {
  /** Pairs (hash, id number + 1), 0 for a free slot: a probe reads one cache line, not two arrays. */
  private slots: Int32Array;
  /** Where each id's code units start in `units` (its end is the next id's start). */
  private starts: Int32Array;
  private units: Uint16Array;
  private count = 0;

  /** `expected`: about how many ids will come (sized for it, so the table seldom has to grow). */
  constructor(expected = 1024) {
    let capacity = 1 << 11;
    while (capacity < expected) capacity *= 2;
    this.slots = new Int32Array(capacity * 2);
    this.starts = new Int32Array(capacity + 1);
    this.units = new Uint16Array(capacity * 12);
  }

  /** Adds `id`; false when it was already there. */
  add(id: string): boolean {
    // One pass over the id: hashed while its code units are written after the last id's (kept only
    // when the id is new).
    const n = this.count;
    const start = this.starts[n] as number;
    if (start + id.length > this.units.length) this.units = grown(this.units, (start + id.length) * 2);
    const units = this.units;
    let h = 0x811c9dc5 | 0;
    for (let k = 0; k < id.length; k++) {
      const unit = id.charCodeAt(k);
      units[start + k] = unit;
      h = Math.imul(h ^ unit, 0x01000193);
    }
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const at = slots[2 * slot + 1] as number;
      if (at === 0) {
        slots[2 * slot] = h;
        slots[2 * slot + 1] = n + 1;
        this.count = n + 1;
        if (this.count === this.starts.length - 1) this.starts = grown(this.starts, this.starts.length * 2);
        this.starts[n + 1] = start + id.length;
        if (this.count * 8 > slots.length * 3) this.grow();
        return true;
      }
      if (slots[2 * slot] === h && this.equals(at - 1, start, id.length)) return false;
    }
  }

  /** Whether id `n`'s code units are the `length` units at `at` in the pool. */
  private equals(n: number, at: number, length: number): boolean {
    const start = this.starts[n] as number;
    if ((this.starts[n + 1] as number) - start !== length) return false;
    for (let k = 0; k < length; k++) if (this.units[start + k] !== this.units[at + k]) return false;
    return true;
  }

  /** Twice the slots, once three in four are taken. */
  private grow() {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === 0) continue;
      let slot = (old[i] as number) & mask;
      while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = old[i] as number;
      slots[2 * slot + 1] = old[i + 1] as number;
    }
    this.slots = slots;
  }
}

function grown<T extends Int32Array | Uint16Array>(array: T, length: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(length);
  bigger.set(array);
  return bigger;
}

/** `imported`: patients handed to `onBatch` (and so sent on); a cancelled import sends no partial batch. */
export type ImportSummary = { rowsDone: number; imported: number; errors: RowError[]; cancelled: boolean };

/**
 * The "importing" step: streams the file, checks each row against the mapping and SPEC §5, and hands
 * good patients and bad rows to `onBatch` 1024 rows at a time. Entirely empty rows are skipped.
 * A good row whose display id (as the row check gives it: trimmed, an NHS number as its 10 digits) an
 * earlier good row of the file already had is bad ('duplicate ID field: {id}'): the first row wins
 * wherever the 1024-row batches fall, so a later batch never overwrites an earlier row of the file.
 * The mapping must pass {@link checkMapping}; a mapping that does not is refused before reading.
 * A file with no patient row at all (only field names, or nothing) throws {@link CsvFileError}
 * rather than reporting an import of 0 patients; {@link patientRowCount} says so before importing.
 */
export async function importPatientCsv(source: CsvSource, options: ImportOptions): Promise<ImportSummary> {
  const mappingProblems = checkMapping(options.mapping);
  if (mappingProblems.length > 0) throw new Error(mappingProblems.join('; '));
  const plan = planOf(options.mapping);
  const today = options.today ?? londonIsoDate(Date.now());
  const batchRows = options.batchRows ?? IMPORT_BATCH_ROWS;
  let skipHeader = options.firstLine === 'fields';
  let batch: ImportBatch = { patients: [], rows: [], errors: [], rowsDone: 0 };
  let pendingRows = 0;
  let rowsDone = 0;
  let imported = 0;
  const allErrors: RowError[] = [];
  // The display ids of the good rows so far: only the ids are kept, never the rows (100,000 short
  // strings for the largest files), and each row costs one Set operation.
  // Sized for a row of about 100 bytes: a 14 MB file of 100,000 patients never grows the table.
  const seenIds = new IdSet((typeof source === 'string' ? source.length : source.size) / 100);

  const flush = async () => {
    batch.rowsDone = rowsDone;
    const full = batch;
    batch = { patients: [], rows: [], errors: [], rowsDone };
    pendingRows = 0;
    await options.onBatch(full);
    imported += full.patients.length;
  };

  const { aborted } = await streamCsv(
    source,
    async (rows, first) => {
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i] as string[];
        if (isEmptyRow(row)) continue;
        if (skipHeader) {
          skipHeader = false;
          continue;
        }
        rowsDone++;
        pendingRows++;
        const outcome = checkPatientRow(row, plan, today);
        let errors: string[] | undefined;
        if (outcome.ok) {
          if (seenIds.add(outcome.patient.displayId)) {
            batch.patients.push(outcome.patient);
            batch.rows.push(first + i);
          } else errors = [rowMessages.duplicateId(outcome.patient.displayId)];
        } else errors = outcome.errors;
        if (errors) {
          const error = { row: first + i, errors };
          batch.errors.push(error);
          allErrors.push(error);
        }
        if (pendingRows >= batchRows) {
          if (options.signal?.aborted) return;
          await flush();
        }
      }
    },
    options.signal,
  );
  const cancelled = aborted || (options.signal?.aborted ?? false);
  if (!cancelled && rowsDone === 0) throw new CsvFileError(csvFileMessages.noData);
  if (!cancelled && pendingRows > 0) await flush();
  return { rowsDone, imported, errors: allErrors, cancelled };
}

/** The API refuses bodies over 1 MB; an import batch goes in parts of at most this much JSON. */
export const IMPORT_MAX_BODY_BYTES = 900_000;

/** Bytes of `text` in UTF-8, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff)
      i++; // a surrogate pair: 4 bytes for 2 UTF-16 units
    else bytes += 2;
  }
  return bytes;
}

/**
 * The index ranges [from, to) that split `items` into parts whose JSON stays within `maxBytes`, halving
 * as often as needed: a batch of ordinary rows (~300 KB for 1024 patients) is one part; a batch of very
 * long rows goes in two or more, so the server's body limit never refuses an import.
 */
export function bodySizedParts(
  items: readonly unknown[],
  maxBytes: number = IMPORT_MAX_BODY_BYTES,
): Array<[from: number, to: number]> {
  const parts: Array<[number, number]> = [];
  const split = (from: number, to: number) => {
    if (to - from > 1 && utf8Length(JSON.stringify(items.slice(from, to))) > maxBytes) {
      const middle = (from + to) >> 1;
      split(from, middle);
      split(middle, to);
    } else {
      parts.push([from, to]);
    }
  };
  if (items.length > 0) split(0, items.length);
  return parts;
}
