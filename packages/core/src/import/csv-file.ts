import Papa from 'papaparse';
import { BlobText } from './blob-text.ts';
import { encodingOfBlob } from './text-encoding.ts';

/** A CSV as a string (cli, tests) or a Blob/File (browser, Web Worker). */
export type CsvSource = string | Blob;

/** SPEC §4/§8 file-level outcomes, in the words the user sees. */
export const csvFileMessages = {
  noData: 'The selected file contains no data.',
  parsing: 'Errors encountered during parsing.',
  unknown: 'An unknown error occurred',
} as const;

/** A file that cannot be imported at all; `problems` lists what was wrong, row by row. */
export class CsvFileError extends Error {
  override name = 'CsvFileError';
  constructor(
    message: (typeof csvFileMessages)[keyof typeof csvFileMessages],
    readonly problems: string[] = [],
  ) {
    super(message);
  }
}

export type CsvRowHandler = (rows: string[][], firstRowNumber: number) => void | Promise<void>;

// Papaparse hands over ~1 MB of rows at a time; batching for the server happens above this.
const PARSE_CHUNK_CHARS = 1 << 20;

/** Papaparse keeps a UTF-8 byte order mark in string input; a spreadsheet's "CSV UTF-8" starts with one. */
const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * Streams a CSV's records to `onRows`, in order, with the 1-based number of the first record (the row
 * number a person sees in a spreadsheet, quoted newlines included in their record). Parsing pauses
 * while `onRows` works, so a slow consumer holds the file, not memory. Resolves with whether the
 * stream was aborted through `signal`.
 */
export async function streamCsv(
  source: CsvSource,
  onRows: CsvRowHandler,
  signal?: AbortSignal,
): Promise<{ aborted: boolean }> {
  // A string (the cli reads its file whole) is cut into pieces by papaparse; a Blob (the console's File)
  // is read as a stream of text, decoded across the reads (see BlobText).
  // A file that is not valid UTF-8 is read as Windows-1252 (Excel's plain CSV; see text-encoding.ts).
  const blob =
    typeof source === 'string' ? undefined : new BlobText(source, PARSE_CHUNK_CHARS, await encodingOfBlob(source));
  return new Promise((resolve, reject) => {
    let rowNumber = 1;
    let failed = false;
    const config: Omit<Papa.ParseRemoteConfig<string[]>, 'download'> = {
      header: false,
      skipEmptyLines: false,
      chunkSize: PARSE_CHUNK_CHARS,
      chunk: (results, parser) => {
        if (signal?.aborted) {
          parser.abort();
          return;
        }
        const rows = results.data;
        const first = rowNumber;
        rowNumber += rows.length;
        const pending = onRows(rows, first);
        if (pending instanceof Promise) {
          parser.pause();
          pending.then(
            () => {
              if (signal?.aborted) parser.abort();
              else {
                parser.resume();
                void blob?.pull();
              }
            },
            (error: unknown) => {
              failed = true;
              parser.abort();
              reject(error);
            },
          );
        } else {
          void blob?.pull();
        }
      },
      complete: () => {
        blob?.cancel();
        if (!failed) resolve({ aborted: signal?.aborted ?? false });
      },
      error: (error: Error) => {
        blob?.cancel();
        reject(new CsvFileError(csvFileMessages.unknown, [error.message]));
      },
    };
    // Papaparse's types split string and stream input into overloads; the config is valid for both.
    const input = blob ?? stripBom(source as string);
    Papa.parse(input as unknown as string, config as unknown as Papa.ParseConfig<string[]>);
    void blob?.pull();
  });
}
