/// <reference lib="webworker" />
import { CsvFileError, csvFileMessages, importPatientCsv, inspectCsv } from '@medlocker/core';
import type { FromImportWorker, ToImportWorker } from './import-protocol.ts';

/**
 * The patient CSV import, off the main thread: `inspect` reads the file once (field counts, a random
 * sample), `import` streams it through core's checks and posts 1024-row batches, waiting for the
 * page's `ack` after each (the page is sending it to the server). `cancel` stops at the next batch.
 */

const post = (message: FromImportWorker) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(message);

let ackWaiter: (() => void) | null = null;
/** The File of the last `inspect`: `import` reads this same object (its encoding is known by then). */
let inspected: File | null = null;
let controller: AbortController | null = null;

function fileError(error: unknown) {
  if (error instanceof CsvFileError) post({ type: 'fileError', message: error.message, problems: error.problems });
  else
    post({
      type: 'fileError',
      message: csvFileMessages.unknown,
      problems: [String((error as Error)?.message ?? error)],
    });
}

self.onmessage = async (event: MessageEvent<ToImportWorker>) => {
  const message = event.data;
  switch (message.type) {
    case 'inspect':
      inspected = message.file;
      try {
        post({ type: 'inspected', inspection: await inspectCsv(message.file) });
      } catch (error) {
        fileError(error);
      }
      return;
    case 'import': {
      controller = new AbortController();
      const signal = controller.signal;
      try {
        if (!inspected) throw new Error('No file was chosen');
        const summary = await importPatientCsv(inspected, {
          firstLine: message.firstLine,
          mapping: message.mapping,
          signal,
          onBatch: (batch) =>
            new Promise<void>((resolve) => {
              ackWaiter = resolve;
              post({ type: 'batch', batch });
            }),
        });
        post({
          type: 'done',
          rowsDone: summary.rowsDone,
          cancelled: summary.cancelled,
          errorCount: summary.errors.length,
        });
      } catch (error) {
        post({ type: 'failed', message: error instanceof Error ? error.message : csvFileMessages.unknown });
      } finally {
        controller = null;
      }
      return;
    }
    case 'ack': {
      const resolve = ackWaiter;
      ackWaiter = null;
      resolve?.();
      return;
    }
    case 'cancel':
      controller?.abort();
      return;
  }
};
