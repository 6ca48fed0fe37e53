import { examplePatientCsv } from '@medlocker/core';
import { ChooseFileStep as ChooseCsvFile } from '../../csv-import/CsvSteps.tsx';

/** The example file, as a link can download it without asking the server. */
const exampleCsvHref = `data:text/csv;charset=utf-8,${encodeURIComponent(examplePatientCsv())}`;

/** The patient import's first step: what the file holds, an example to download, and the file to choose. */
export function ChooseFileStep(props: {
  fileError: { message: string; problems: string[] } | null;
  onFile: (file: File) => void;
}) {
  return (
    <ChooseCsvFile {...props} label="Patient CSV file">
      Choose a CSV file of patients: one patient per line, the same columns on every line. Each patient needs a name, a
      UK mobile number and an ID (an NHS number or your own).{' '}
      <a className="link" href={exampleCsvHref} download="patients-example.csv">
        Download an example file
      </a>
    </ChooseCsvFile>
  );
}
