import {
  bodySizedParts,
  CsvFileError,
  type CsvInspection,
  type CsvMapping,
  csvFileMessages,
  type ImportBatch,
  patientRowCount,
  type RowError,
} from '@medlocker/core';
import { useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { messageOf, rpc } from '../../../api/client.ts';
import { patientPaths } from '../../../paths.ts';
import { Banner } from '../../../ui/Banner.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Loading } from '../../../ui/Page.tsx';
import { ProgressBar } from '../../../ui/ProgressBar.tsx';
import { Section } from '../../../ui/Section.tsx';
import type { FromImportWorker } from '../../../workers/import-protocol.ts';
import { ChooseFileStep } from './ChooseFileStep.tsx';
import { ErrorTable, FirstLineStep, MappingStep } from './ImportSteps.tsx';
import { guessMapping } from './mapping-guess.ts';
import { useImportWorker } from './use-import-worker.ts';

/** Batches sent to the server at once. */
const IN_FLIGHT = 2;

type Step = 'choose' | 'parsing' | 'firstLine' | 'mapping' | 'importing' | 'finished';
type Counts = { processed: number; created: number; updated: number; unchanged: number };

const noCounts: Counts = { processed: 0, created: 0, updated: 0, unchanged: 0 };

/**
 * SPEC §2/§4 patient CSV import: choose a file (click or drop), parse, say whether the first line is
 * patient data or field names, map the columns, import with progress and Cancel, then the errors
 * and the count. Parsing and row checks run in a Web Worker; this page sends each 1024-row batch to
 * patients.batchUpsertPatients, at most two at once (the server writes one while it reads the next),
 * and acknowledges a batch to the worker while fewer than two are in flight: the worker reads on only
 * then, so memory stays flat however large the file.
 */
export function ImportPatients() {
  const { businessId = '' } = useParams();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('choose');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<{ message: string; problems: string[] } | null>(null);
  const [inspection, setInspection] = useState<CsvInspection | null>(null);
  const [firstLine, setFirstLine] = useState<'data' | 'fields'>('data');
  const [mapping, setMapping] = useState<CsvMapping>([]);
  const [rowsDone, setRowsDone] = useState(0);
  const [errors, setErrors] = useState<RowError[]>([]);
  const [counts, setCounts] = useState<Counts>(noCounts);
  const [cancelled, setCancelled] = useState(false);
  const [failure, setFailure] = useState<string>();
  const cancelRef = useRef(false);
  const inFlight = useRef(new Set<Promise<void>>());
  const ackOwed = useRef(false);

  const totalRows = inspection ? Math.max(0, inspection.nonEmptyRows - (firstLine === 'fields' ? 1 : 0)) : 0;

  const sendBatch = async (batch: ImportBatch) => {
    const found: RowError[] = [...batch.errors];
    if (batch.patients.length > 0) {
      try {
        // The API takes bodies up to 1 MB: a batch of unusually long rows goes in parts.
        for (const [from, to] of bodySizedParts(batch.patients)) {
          const patients = batch.patients.slice(from, to);
          const answer = await rpc('patients', 'batchUpsertPatients', { businessId, patients });
          for (const outcome of answer.results) {
            if (outcome.status === 'invalid') {
              found.push({ row: batch.rows[from + outcome.index] ?? 0, errors: outcome.errors ?? ['refused'] });
            }
          }
          setCounts((c) => ({
            processed: c.processed + answer.created + answer.updated + answer.unchanged,
            created: c.created + answer.created,
            updated: c.updated + answer.updated,
            unchanged: c.unchanged + answer.unchanged,
          }));
        }
      } catch (error) {
        // The server could not take the batch: stop here, keep what was imported.
        setFailure(messageOf(error));
        cancelRef.current = true;
        send({ type: 'cancel' });
      }
    }
    if (found.length > 0) setErrors((before) => [...before, ...found].sort((a, b) => a.row - b.row));
    setRowsDone((done) => Math.max(done, batch.rowsDone));
  };

  /** Sends a batch; the worker may read the next one at once while fewer than IN_FLIGHT are out. */
  const startBatch = (batch: ImportBatch) => {
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
  };

  const send = useImportWorker((message: FromImportWorker) => {
    switch (message.type) {
      case 'inspected':
        setInspection(message.inspection);
        setStep('firstLine');
        return;
      case 'fileError':
        setFileError({ message: message.message, problems: message.problems });
        setStep('choose');
        return;
      case 'batch':
        startBatch(message.batch);
        return;
      case 'done':
        // The last batches may still be on their way to the server.
        void Promise.all([...inFlight.current]).then(() => {
          setRowsDone(message.rowsDone);
          setCancelled(message.cancelled || cancelRef.current);
          setStep('finished');
        });
        return;
      case 'failed':
        setFailure(message.message || csvFileMessages.unknown);
        setCancelled(true);
        setStep(step === 'importing' ? 'finished' : 'choose');
        return;
    }
  });

  const choose = (chosen: File) => {
    setFile(chosen);
    setFileError(null);
    setFailure(undefined);
    setStep('parsing');
    send({ type: 'inspect', file: chosen });
  };

  const startImport = () => {
    if (!file) return;
    cancelRef.current = false;
    ackOwed.current = false;
    setErrors([]);
    setCounts(noCounts);
    setRowsDone(0);
    setCancelled(false);
    setFailure(undefined);
    setStep('importing');
    send({ type: 'import', firstLine, mapping });
  };

  const cancel = () => {
    cancelRef.current = true;
    send({ type: 'cancel' });
  };

  const percentage = totalRows === 0 ? 100 : Math.min(100, Math.round((rowsDone / totalRows) * 100));

  return (
    <Section title="Import patients" lead={file && step !== 'choose' ? `File: ${file.name}` : undefined}>
      {failure && <Banner tone="error">{failure}</Banner>}
      {step === 'choose' && <ChooseFileStep fileError={fileError} onFile={choose} />}
      {step === 'parsing' && <Loading label="Reading the file…" />}
      {step === 'firstLine' && inspection && (
        <FirstLineStep
          firstRow={inspection.firstRow}
          onChoose={(choice) => {
            try {
              patientRowCount(inspection, choice);
            } catch (error) {
              // Only field names and no patient: refused like an empty file, where file errors show.
              if (!(error instanceof CsvFileError)) throw error;
              setFileError({ message: error.message, problems: error.problems });
              setStep('choose');
              return;
            }
            setFirstLine(choice);
            setMapping(choice === 'fields' ? guessMapping(inspection.firstRow) : inspection.firstRow.map(() => null));
            setStep('mapping');
          }}
          onBack={() => setStep('choose')}
        />
      )}
      {step === 'mapping' && inspection && (
        <MappingStep
          inspection={inspection}
          firstLine={firstLine}
          mapping={mapping}
          onChange={setMapping}
          onBack={() => setStep('firstLine')}
          onImport={startImport}
        />
      )}
      {(step === 'importing' || step === 'finished') && (
        <>
          {step === 'importing' ? (
            <>
              <ProgressBar label="Importing…" value={percentage} />
              <div className="form__actions">
                <Button isDisabled>Back</Button>
                <Button variant="danger" onPress={cancel} isDisabled={cancelRef.current}>
                  Cancel
                </Button>
              </div>
            </>
          ) : (
            <div className="import-result" role="status">
              <h3 className="import-result__title">{cancelled ? 'Import cancelled' : 'Import complete'}</h3>
              <p>
                {counts.processed} {counts.processed === 1 ? 'patient' : 'patients'} processed ({counts.created} added,{' '}
                {counts.updated} updated, {counts.unchanged} unchanged); {errors.length}{' '}
                {errors.length === 1 ? 'row' : 'rows'} with errors.
              </p>
            </div>
          )}
          <ErrorTable errors={errors} />
          {step === 'finished' && (
            <div className="form__actions">
              <Button variant="primary" onPress={() => navigate(patientPaths.list(businessId))}>
                Complete
              </Button>
            </div>
          )}
        </>
      )}
    </Section>
  );
}
