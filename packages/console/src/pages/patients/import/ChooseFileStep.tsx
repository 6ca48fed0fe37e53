import { examplePatientCsv } from '@medlocker/core';
import { ChooseFileStep as ChooseCsvFile } from '../../csv-import/CsvSteps.tsx';
import { t } from '../i18n/index.ts';

/** The example file, as a link can download it without asking the server. */
const exampleCsvHref = `data:text/csv;charset=utf-8,${encodeURIComponent(examplePatientCsv())}`;

/** The patient import's first step: what the file holds, an example to download, and the file to choose. */
export function ChooseFileStep(props: {
  fileError: { message: string; problems: string[] } | null;
  onFile: (file: File) => void;
}) {
  return (
    <ChooseCsvFile {...props} label={t('patients.import.fileLabel')}>
      {t('patients.import.fileHint')}{' '}
      <a className="link" href={exampleCsvHref} download="patients-example.csv">
        {t('patients.import.example')}
      </a>
    </ChooseCsvFile>
  );
}
