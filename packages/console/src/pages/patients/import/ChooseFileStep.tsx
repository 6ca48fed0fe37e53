import { examplePatientCsv } from '@medlocker/core';
import { Banner } from '../../../ui/Banner.tsx';
import { DropZone } from '../../../ui/DropZone.tsx';

/** The example file, as a link can download it without asking the server. */
const exampleCsvHref = `data:text/csv;charset=utf-8,${encodeURIComponent(examplePatientCsv())}`;

/** The import's first step: what the file holds, an example to download, and the file to choose. */
export function ChooseFileStep({
  fileError,
  onFile,
}: {
  /** Why the last file was refused, with its problems. */
  fileError: { message: string; problems: string[] } | null;
  onFile: (file: File) => void;
}) {
  return (
    <>
      {fileError && (
        <Banner tone="error" title={fileError.message}>
          {fileError.problems.length > 0 && (
            <ul className="problems">
              {fileError.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
        </Banner>
      )}
      <p>
        Choose a CSV file of patients: one patient per line, the same columns on every line. Each patient needs a name,
        a UK mobile number and an ID (an NHS number or your own).{' '}
        <a className="link" href={exampleCsvHref} download="patients-example.csv">
          Download an example file
        </a>
      </p>
      <DropZone
        label="Patient CSV file"
        acceptedFileTypes={['text/csv', '.csv', 'text/plain']}
        onFile={onFile}
        buttonLabel="Choose file"
      />
    </>
  );
}
