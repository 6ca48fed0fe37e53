import {
  type BusinessFeatureSettings,
  CsvFileError,
  type CsvRecord,
  checkOrderMapping,
  checkOrderRows,
  csvFileMessages,
  guessOrderMapping,
  type OrderCsvMapping,
  orderCsvColumnLabels,
  orderCsvColumns,
  readCsvRecords,
} from '@medlocker/core';
import { useMemo, useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Banner } from '../../../ui/Banner.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Loading } from '../../../ui/Page.tsx';
import { ProgressBar } from '../../../ui/ProgressBar.tsx';
import { ChooseFileStep, FirstLineStep, MappingStep } from '../../csv-import/CsvSteps.tsx';
import { generateBarcode } from '../barcode.ts';
import { OrderCreation } from '../OrderCreation.tsx';
import { t } from './i18n/index.ts';
import { failedRowsCsv, OrderImportResult } from './OrderImportResult.tsx';
import { OrderPreview } from './OrderPreview.tsx';
import { useOrderCreation } from './use-order-creation.ts';

const exampleCsv = 'barcode,patientDisplayId,collectionWindow,prescriptionCharge\nBAG-0001,943 476 5919,7,9.90\n';
const exampleCsvHref = `data:text/csv;charset=utf-8,${encodeURIComponent(exampleCsv)}`;

type Step = 'choose' | 'reading' | 'firstLine' | 'mapping' | 'preview' | 'creating' | 'finished';

/**
 * `/businesses/{businessId}/orders/import`: orders from a CSV, as the patient import goes (choose the
 * file, say what its first line is, map its columns), then a preview of the first rows with each row's
 * errors, then creation with progress and the result (docs/ORDERS.md, Importing orders). Who may create
 * orders may import them (OrderCreation).
 */
export function ImportOrders() {
  return (
    <OrderCreation title={t('orderImport.import.title')}>
      {(settings, businessId) => <OrderImport businessId={businessId} settings={settings} />}
    </OrderCreation>
  );
}

/** The fields a column may hold: the charges only when the business takes them, as the form shows them. */
const offeredFields = (settings: BusinessFeatureSettings) =>
  orderCsvColumns.filter(
    (c) =>
      (c !== 'prescriptionCharge' || settings.charges.enabled) &&
      (c !== 'retailCharge' || settings.retailCharges.enabled),
  );

/** The file read, its first line's meaning and the mapping; the rows checked against them. */
function useOrderCsv(businessId: string, settings: BusinessFeatureSettings) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<{ message: string; problems: string[] } | null>(null);
  const [records, setRecords] = useState<CsvRecord[]>([]);
  const [firstLine, setFirstLine] = useState<'data' | 'fields'>('fields');
  const [mapping, setMapping] = useState<OrderCsvMapping>([]);
  const autoGenerate = settings.autoBarcodes.autoGenerate;
  const offered = offeredFields(settings);
  const header = firstLine === 'fields' ? (records[0]?.cells ?? null) : null;
  const data = useMemo(() => (firstLine === 'fields' ? records.slice(1) : records), [records, firstLine]);
  // Checked once per mapping: a generated barcode stays the same from the preview to creation.
  const checked = useMemo(
    () =>
      checkOrderRows(data, mapping, {
        businessId,
        ...(autoGenerate ? { generateBarcode: () => generateBarcode() } : {}),
      }),
    [data, mapping, businessId, autoGenerate],
  );
  return {
    file,
    fileError,
    records,
    firstLine,
    mapping,
    setMapping,
    header,
    data,
    checked,
    fields: offered.map((id) => ({ id, label: orderCsvColumnLabels[id] })),
    problems: checkOrderMapping(mapping, { barcodeOptional: autoGenerate }),
    /** Reads the chosen file whole (an order file is small); false when it cannot be imported. */
    async read(chosen: File): Promise<boolean> {
      setFile(chosen);
      setFileError(null);
      try {
        setRecords(await readCsvRecords(chosen));
        return true;
      } catch (error) {
        setFileError(
          error instanceof CsvFileError
            ? { message: error.message, problems: error.problems }
            : { message: csvFileMessages.unknown, problems: [] },
        );
        return false;
      }
    },
    /** The first line as data or field names (then the columns are guessed from them). */
    chooseFirstLine(choice: 'data' | 'fields'): boolean {
      const first = records[0]?.cells ?? [];
      if (choice === 'fields' && records.length < 2) {
        setFileError({ message: csvFileMessages.noData, problems: [] });
        return false;
      }
      setFirstLine(choice);
      const guessed = guessOrderMapping(first).map((c) => (c && offered.includes(c) ? c : null));
      setMapping(choice === 'fields' ? guessed : first.map(() => null));
      return true;
    },
  };
}

function OrderImport({ businessId, settings }: { businessId: string; settings: BusinessFeatureSettings }) {
  const [step, setStep] = useState<Step>('choose');
  const csv = useOrderCsv(businessId, settings);
  const creation = useOrderCreation(businessId);
  const { good, errors } = csv.checked;

  const create = async () => {
    setStep('creating');
    await creation.run(good);
    setStep('finished');
  };
  const failed = [...errors, ...creation.refused].sort((a, b) => a.row - b.row);
  const first = csv.records[0]?.cells ?? [];

  return (
    <>
      {csv.file && step !== 'choose' && (
        <p className="muted">{t('orderImport.import.file', { name: csv.file.name })}</p>
      )}
      {step === 'choose' && (
        <OrderFileStep
          fileError={csv.fileError}
          autoGenerate={settings.autoBarcodes.autoGenerate}
          onFile={(chosen) => {
            setStep('reading');
            void csv.read(chosen).then((ok) => setStep(ok ? 'firstLine' : 'choose'));
          }}
        />
      )}
      {step === 'reading' && <Loading label={t('orderImport.import.reading')} />}
      {step === 'firstLine' && (
        <FirstLineStep
          dataLabel={t('orderImport.import.dataLabel')}
          firstRow={first}
          onChoose={(choice) => setStep(csv.chooseFirstLine(choice) ? 'mapping' : 'choose')}
          onBack={() => setStep('choose')}
        />
      )}
      {step === 'mapping' && (
        <MappingStep
          inspection={{ firstRow: first, sample: csv.records.slice(1, 21).map((r) => r.cells) }}
          firstLine={csv.firstLine}
          fields={csv.fields}
          mapping={csv.mapping}
          problems={csv.problems}
          sampleNote={t('orderImport.import.sampleNote')}
          nextLabel={t('orderImport.import.preview')}
          onChange={csv.setMapping}
          onBack={() => setStep('firstLine')}
          onImport={() => setStep('preview')}
        />
      )}
      {step === 'preview' && (
        <OrderPreview
          records={csv.data}
          mapping={csv.mapping}
          errors={errors}
          goodCount={good.length}
          onBack={() => setStep('mapping')}
          onCreate={() => void create()}
        />
      )}
      {step === 'creating' && <CreatingStep done={creation.done} total={good.length} onCancel={creation.cancel} />}
      {step === 'finished' && (
        <>
          {creation.failure !== null && <Banner tone="error">{messageOf(creation.failure)}</Banner>}
          <OrderImportResult
            businessId={businessId}
            cancelled={creation.cancelled.current || creation.failure !== null}
            created={creation.created}
            failed={failed}
            failedCsv={() => failedRowsCsv(csv.header, csv.data, failed)}
            autoPrint={settings.autoBarcodes.autoPrint}
          />
        </>
      )}
    </>
  );
}

/** The import's first step: what an order file holds, an example, and the file to choose. */
function OrderFileStep(props: {
  fileError: { message: string; problems: string[] } | null;
  autoGenerate: boolean;
  onFile: (file: File) => void;
}) {
  return (
    <ChooseFileStep label={t('orderImport.import.fileLabel')} fileError={props.fileError} onFile={props.onFile}>
      {props.autoGenerate ? t('orderImport.import.fileHintGenerated') : t('orderImport.import.fileHint')}{' '}
      <a className="link" href={exampleCsvHref} download="orders-example.csv">
        {t('orderImport.import.example')}
      </a>
    </ChooseFileStep>
  );
}

/** While the orders are created: progress, and Cancel (Back waits for the end). */
function CreatingStep({ done, total, onCancel }: { done: number; total: number; onCancel: () => void }) {
  return (
    <>
      <ProgressBar
        label={t('orderImport.import.creating')}
        value={total === 0 ? 100 : Math.round((done / total) * 100)}
      />
      <div className="form__actions">
        <Button isDisabled>{t('orderImport.import.back')}</Button>
        <Button variant="danger" onPress={onCancel}>
          {t('orderImport.import.cancel')}
        </Button>
      </div>
    </>
  );
}
