import { useEffect, useRef } from 'react';
import { workerUrl } from '../../../worker-url.ts';
import type { FromImportWorker, ToImportWorker } from '../../../workers/import-protocol.ts';
import { t } from '../i18n/index.ts';

/**
 * The import's Web Worker for as long as the page is open: `send` posts to it, `onMessage` receives
 * (the latest handler is used). The worker is ended when the page goes, which also ends an import.
 * A worker that failed (its script did not load: a page open across a deploy) is ended and reported
 * as 'failed'; the next `send` starts a new one, so a choice made after a failure is never posted to
 * a dead worker and left on "Reading the file…".
 */
export function useImportWorker(onMessage: (message: FromImportWorker) => void) {
  const workerRef = useRef<Worker | null>(null);
  const handlerRef = useRef(onMessage);
  handlerRef.current = onMessage;

  const start = () => {
    const worker = new Worker(workerUrl('patientImport'), { type: 'module', name: 'patient-import' });
    worker.onmessage = (event: MessageEvent<FromImportWorker>) => handlerRef.current(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      if (workerRef.current === worker) workerRef.current = null;
      handlerRef.current({ type: 'failed', message: t('patients.import.unknownError') });
    };
    workerRef.current = worker;
    return worker;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: one worker per mounted page
  useEffect(() => {
    start();
    return () => {
      workerRef.current?.terminate();
      workerRef.current = null;
    };
  }, []);

  return (message: ToImportWorker) => (workerRef.current ?? start()).postMessage(message);
}
