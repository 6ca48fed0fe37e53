import { useEffect, useRef } from 'react';
import { workerUrl } from '../../../worker-url.ts';
import type { FromImportWorker, ToImportWorker } from '../../../workers/import-protocol.ts';

/**
 * The import's Web Worker for as long as the page is open: `send` posts to it, `onMessage` receives
 * (the latest handler is used). The worker is ended when the page goes, which also ends an import.
 */
export function useImportWorker(onMessage: (message: FromImportWorker) => void) {
  const workerRef = useRef<Worker | null>(null);
  const handlerRef = useRef(onMessage);
  handlerRef.current = onMessage;

  useEffect(() => {
    const worker = new Worker(workerUrl('patientImport'), { type: 'module', name: 'patient-import' });
    worker.onmessage = (event: MessageEvent<FromImportWorker>) => handlerRef.current(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      handlerRef.current({ type: 'failed', message: 'An unknown error occurred' });
    };
    workerRef.current = worker;
    return () => {
      worker.terminate();
      workerRef.current = null;
    };
  }, []);

  return (message: ToImportWorker) => workerRef.current?.postMessage(message);
}
