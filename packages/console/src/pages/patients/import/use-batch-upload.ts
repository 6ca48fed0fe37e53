import { bodySizedParts, type ImportBatch, type RowError } from '@medlocker/core';
import { useRef, useState } from 'react';
import { messageOf, rpc } from '../../../api/client.ts';
import type { ToImportWorker } from '../../../workers/import-protocol.ts';

/** Batches sent to the server at once. */
const IN_FLIGHT = 2;

export type Counts = { processed: number; created: number; updated: number; unchanged: number };

const noCounts: Counts = { processed: 0, created: 0, updated: 0, unchanged: 0 };

type Answer = { created: number; updated: number; unchanged: number };

/**
 * One batch's patients, in parts the API takes (bodies up to 1 MB): the rows refused are added to
 * `found`, each part's counts go to `counted`.
 */
async function uploadBatch(
  businessId: string,
  batch: ImportBatch,
  found: RowError[],
  counted: (answer: Answer) => void,
) {
  for (const [from, to] of bodySizedParts(batch.patients)) {
    const patients = batch.patients.slice(from, to);
    const answer = await rpc('patients', 'batchUpsertPatients', { businessId, patients });
    for (const outcome of answer.results) {
      if (outcome.status === 'invalid') {
        found.push({ row: batch.rows[from + outcome.index] ?? 0, errors: outcome.errors ?? ['refused'] });
      }
    }
    counted(answer);
  }
}

/**
 * The import's uploads: each 1024-row batch the worker reads goes to patients.batchUpsertPatients, at
 * most two at once (the server writes one while it reads the next), and the worker is acknowledged
 * while fewer than two are in flight: it reads on only then, so memory stays flat however large the
 * file. Tallies the server's answers (counts, rows with errors) and how far through the file it is.
 */
export function useBatchUpload(businessId: string, send: (message: ToImportWorker) => void) {
  const [rowsDone, setRowsDone] = useState(0);
  const [errors, setErrors] = useState<RowError[]>([]);
  const [counts, setCounts] = useState<Counts>(noCounts);
  const [failure, setFailure] = useState<string>();
  const cancelled = useRef(false);
  const inFlight = useRef(new Set<Promise<void>>());
  const ackOwed = useRef(false);

  const sendBatch = async (batch: ImportBatch) => {
    const found: RowError[] = [...batch.errors];
    if (batch.patients.length > 0) {
      try {
        await uploadBatch(businessId, batch, found, (answer) =>
          setCounts((c) => ({
            processed: c.processed + answer.created + answer.updated + answer.unchanged,
            created: c.created + answer.created,
            updated: c.updated + answer.updated,
            unchanged: c.unchanged + answer.unchanged,
          })),
        );
      } catch (error) {
        // The server could not take the batch: stop here, keep what was imported.
        setFailure(messageOf(error));
        cancel();
      }
    }
    if (found.length > 0) setErrors((before) => [...before, ...found].sort((a, b) => a.row - b.row));
    setRowsDone((done) => Math.max(done, batch.rowsDone));
  };

  const cancel = () => {
    cancelled.current = true;
    send({ type: 'cancel' });
  };

  return {
    rowsDone,
    setRowsDone,
    errors,
    counts,
    failure,
    setFailure,
    /** Cancel was asked for (by the user, or by a batch the server could not take). */
    cancelled,
    cancel,
    /** Sends a batch; the worker may read the next one at once while fewer than IN_FLIGHT are out. */
    start(batch: ImportBatch) {
      const sending: Promise<void> = sendBatch(batch).finally(() => {
        inFlight.current.delete(sending);
        if (ackOwed.current) {
          ackOwed.current = false;
          send({ type: 'ack' });
        }
      });
      inFlight.current.add(sending);
      if (inFlight.current.size < IN_FLIGHT) send({ type: 'ack' });
      else ackOwed.current = true;
    },
    /** Once the batches still on their way have been answered. */
    settled: () => Promise.all([...inFlight.current]),
    /** A new import: nothing counted, nothing cancelled. */
    reset() {
      cancelled.current = false;
      ackOwed.current = false;
      setErrors([]);
      setCounts(noCounts);
      setRowsDone(0);
      setFailure(undefined);
    },
  };
}
