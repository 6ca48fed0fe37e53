import type { CsvInspection, CsvMapping, ImportBatch, RowError } from '@medlocker/core';

/**
 * Messages between the import page and src/workers/import.worker.ts. The worker parses and checks
 * the CSV off the main thread; the page sends each batch to the server and answers `ack` when it can
 * take another (at most two batches on their way), and only then does the worker read on
 * (backpressure: memory stays flat).
 */
export type ToImportWorker =
  | { type: 'inspect'; file: File }
  /** Imports the File the worker last inspected (kept there, so its encoding is checked once). */
  | { type: 'import'; firstLine: 'data' | 'fields'; mapping: CsvMapping }
  | { type: 'ack' }
  | { type: 'cancel' };

export type FromImportWorker =
  | { type: 'inspected'; inspection: CsvInspection }
  | { type: 'fileError'; message: string; problems: string[] }
  | { type: 'batch'; batch: ImportBatch }
  | { type: 'done'; rowsDone: number; cancelled: boolean; errorCount: number }
  | { type: 'failed'; message: string };

export type { RowError };
