import {
  CsvFileError,
  type CsvInspection,
  type CsvMapping,
  checkMapping,
  csvFieldKinds,
  csvFieldLabels,
  csvFileMessages,
  patientRowCount,
  type RowError,
} from '@medlocker/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { patientPaths } from '../../../paths.ts';
import { Banner } from '../../../ui/Banner.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Loading } from '../../../ui/Page.tsx';
import { ProgressBar } from '../../../ui/ProgressBar.tsx';
import { Section } from '../../../ui/Section.tsx';
import type { FromImportWorker } from '../../../workers/import-protocol.ts';
import { ErrorTable, FirstLineStep, MappingStep } from '../../csv-import/CsvSteps.tsx';
import { t } from '../i18n/index.ts';
import { ChooseFileStep } from './ChooseFileStep.tsx';
import { guessMapping } from './mapping-guess.ts';
import { type Counts, useBatchUpload } from './use-batch-upload.ts';
import { useImportWorker } from './use-import-worker.ts';

const patientFields = csvFieldKinds.map((kind) => ({ id: kind, label: csvFieldLabels[kind] }));

type Step = 'choose' | 'parsing' | 'firstLine' | 'mapping' | 'importing' | 'finished';

/** The file chosen, what the worker found in it, and how its columns are read. */
function useCsvChoices() {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<{ message: string; problems: string[] } | null>(null);
  const [inspection, setInspection] = useState<CsvInspection | null>(null);
  const [firstLine, setFirstLine] = useState<'data' | 'fields'>('data');
  const [mapping, setMapping] = useState<CsvMapping>([]);
  return {
    file,
    setFile,
    fileError,
    setFileError,
    inspection,
    setInspection,
    firstLine,
    mapping,
    setMapping,
    /**
     * Whether the first line is data or field names (then the columns are guessed from them). False
     * when that leaves no patient: refused like an empty file, where file errors show.
     */
    chooseFirstLine(found: CsvInspection, choice: 'data' | 'fields'): boolean {
      try {
        patientRowCount(found, choice);
      } catch (error) {
        if (!(error instanceof CsvFileError)) throw error;
        setFileError({ message: error.message, problems: error.problems });
        return false;
      }
      setFirstLine(choice);
      setMapping(choice === 'fields' ? guessMapping(found.firstRow) : found.firstRow.map(() => null));
      return true;
    },
  };
}

/** What the page does with each of the worker's messages. */
function onWorkerMessage(
  message: FromImportWorker,
  {
    csv,
    upload,
    step,
    setStep,
    setCancelled,
  }: {
    csv: ReturnType<typeof useCsvChoices>;
    upload: ReturnType<typeof useBatchUpload>;
    step: Step;
    setStep: (step: Step) => void;
    setCancelled: (cancelled: boolean) => void;
  },
) {
  switch (message.type) {
    case 'inspected':
      csv.setInspection(message.inspection);
      setStep('firstLine');
      return;
    case 'fileError':
      csv.setFileError({ message: message.message, problems: message.problems });
      setStep('choose');
      return;
    case 'batch':
      upload.start(message.batch);
      return;
    case 'done':
      // The last batches may still be on their way to the server.
      void upload.settled().then(() => {
        upload.setRowsDone(message.rowsDone);
        setCancelled(message.cancelled || upload.cancelled.current);
        setStep('finished');
      });
      return;
    case 'failed':
      upload.setFailure(message.message || csvFileMessages.unknown);
      setCancelled(true);
      setStep(step === 'importing' ? 'finished' : 'choose');
      return;
  }
}

/**
 * SPEC §2/§4 patient CSV import: choose a file (click or drop), parse, say whether the first line is
 * patient data or field names, map the columns, import with progress and Cancel, then the errors
 * and the count. Parsing and row checks run in a Web Worker; the batches it reads go to the server
 * as it can take them (use-batch-upload.ts).
 */
export function ImportPatients() {
  const { businessId = '' } = useParams();
  const [step, setStep] = useState<Step>('choose');
  const csv = useCsvChoices();
  const { file, fileError, inspection, firstLine, mapping } = csv;
  const [cancelled, setCancelled] = useState(false);

  const send = useImportWorker((message) => onWorkerMessage(message, { csv, upload, step, setStep, setCancelled }));
  const upload = useBatchUpload(businessId, send);

  const choose = (chosen: File) => {
    csv.setFile(chosen);
    csv.setFileError(null);
    upload.setFailure(undefined);
    setStep('parsing');
    send({ type: 'inspect', file: chosen });
  };

  const startImport = () => {
    if (!file) return;
    upload.reset();
    setCancelled(false);
    setStep('importing');
    send({ type: 'import', firstLine, mapping });
  };

  const totalRows = inspection ? Math.max(0, inspection.nonEmptyRows - (firstLine === 'fields' ? 1 : 0)) : 0;

  return (
    <Section
      title={t('patients.import.title')}
      lead={file && step !== 'choose' ? t('patients.import.file', { name: file.name }) : undefined}
    >
      {upload.failure && <Banner tone="error">{upload.failure}</Banner>}
      {step === 'choose' && <ChooseFileStep fileError={fileError} onFile={choose} />}
      {step === 'parsing' && <Loading label={t('patients.import.reading')} />}
      {step === 'firstLine' && inspection && (
        <FirstLineStep
          dataLabel={t('patients.import.dataLabel')}
          firstRow={inspection.firstRow}
          onChoose={(choice) => setStep(csv.chooseFirstLine(inspection, choice) ? 'mapping' : 'choose')}
          onBack={() => setStep('choose')}
        />
      )}
      {step === 'mapping' && inspection && (
        <MappingStep
          inspection={inspection}
          firstLine={firstLine}
          fields={patientFields}
          mapping={mapping}
          problems={checkMapping(mapping)}
          sampleNote={t('patients.import.sampleNote')}
          onChange={csv.setMapping}
          onBack={() => setStep('firstLine')}
          onImport={startImport}
        />
      )}
      {(step === 'importing' || step === 'finished') && (
        <ImportOutcome
          businessId={businessId}
          finished={step === 'finished'}
          percentage={totalRows === 0 ? 100 : Math.min(100, Math.round((upload.rowsDone / totalRows) * 100))}
          cancelled={cancelled}
          cancelling={upload.cancelled.current}
          onCancel={upload.cancel}
          counts={upload.counts}
          errors={upload.errors}
        />
      )}
    </Section>
  );
}

/** While importing: progress and Cancel; then what was done. The rows with errors either way. */
function ImportOutcome({
  businessId,
  finished,
  percentage,
  cancelled,
  cancelling,
  onCancel,
  counts,
  errors,
}: {
  businessId: string;
  finished: boolean;
  percentage: number;
  cancelled: boolean;
  cancelling: boolean;
  onCancel: () => void;
  counts: Counts;
  errors: RowError[];
}) {
  const navigate = useNavigate();
  return (
    <>
      {finished ? (
        <div className="import-result" role="status">
          <h3 className="import-result__title">
            {cancelled ? t('patients.import.cancelled') : t('patients.import.complete')}
          </h3>
          <p>{t('patients.import.counts', { ...counts, errors: errors.length })}</p>
        </div>
      ) : (
        <>
          <ProgressBar label={t('patients.import.importing')} value={percentage} />
          <div className="form__actions">
            <Button isDisabled>{t('patients.import.back')}</Button>
            <Button variant="danger" onPress={onCancel} isDisabled={cancelling}>
              {t('patients.import.cancel')}
            </Button>
          </div>
        </>
      )}
      <ErrorTable errors={errors} />
      {finished && (
        <div className="form__actions">
          <Button variant="primary" onPress={() => navigate(patientPaths.list(businessId))}>
            {t('patients.import.done')}
          </Button>
        </div>
      )}
    </>
  );
}
