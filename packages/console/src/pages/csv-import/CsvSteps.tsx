import type { RowError } from '@medlocker/core';
import { type ReactNode, useState } from 'react';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { DropZone } from '../../ui/DropZone.tsx';
import { Select } from '../../ui/Select.tsx';
import { type VirtualColumn, VirtualList } from '../../ui/VirtualList.tsx';
import { t } from './i18n/index.ts';

// The steps every CSV import of the console goes through (patients, orders): choose the file, say what
// its first line is, map its columns, see the rows refused. Each import brings its own fields and rules.

const IGNORE = 'ignore';

/** The import's first step: why the last file was refused, what the file holds, and the file to choose. */
export function ChooseFileStep({
  fileError,
  onFile,
  label,
  children,
}: {
  /** Why the last file was refused, with its problems. */
  fileError: { message: string; problems: string[] } | null;
  onFile: (file: File) => void;
  /** The drop area's name, e.g. 'Patient CSV file'. */
  label: string;
  /** What the file should hold (and an example to download). */
  children: ReactNode;
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
      <p>{children}</p>
      <DropZone
        label={label}
        acceptedFileTypes={['text/csv', '.csv', 'text/plain']}
        onFile={onFile}
        buttonLabel={t('csvImport.chooseFile')}
      />
    </>
  );
}

/** 'Is the first line patient data or field names?', showing the first line. */
export function FirstLineStep(props: {
  /** The data choice's words: 'Patient data', 'Order data'. */
  dataLabel: string;
  firstRow: string[];
  onChoose: (choice: 'data' | 'fields') => void;
  onBack: () => void;
}) {
  return (
    <div className="import-step">
      <h3 className="import-step__title">{t('csvImport.firstLine.title')}</h3>
      <p className="import-first-line">
        <code>{props.firstRow.join(', ')}</code>
      </p>
      <div className="form__actions">
        <Button onPress={props.onBack}>{t('csvImport.back')}</Button>
        <Button variant="primary" onPress={() => props.onChoose('data')}>
          {props.dataLabel}
        </Button>
        <Button variant="primary" onPress={() => props.onChoose('fields')}>
          {t('csvImport.firstLine.fieldNames')}
        </Button>
      </div>
    </div>
  );
}

/** A random row of `rows`, and another on refresh. */
function useSample(rows: string[][]) {
  const [index, setIndex] = useState(() => Math.floor(Math.random() * rows.length));
  const refresh = () => {
    if (rows.length < 2) return;
    let next = index;
    while (next === index) next = Math.floor(Math.random() * rows.length);
    setIndex(next);
  };
  return { sample: rows[index] ?? [], refresh };
}

/** One Select per column, a random sample row beside it (with a refresh), and the mapping's refusals. */
export function MappingStep<Field extends string>(props: {
  /** The file's first line and some rows of it to sample from. */
  inspection: { firstRow: string[]; sample: string[][] };
  firstLine: 'data' | 'fields';
  /** The fields a column may hold, with the words the Select shows. */
  fields: readonly { id: Field; label: string }[];
  mapping: readonly (Field | null)[];
  /** Why the mapping cannot be used yet (the import's own rules). */
  problems: string[];
  /** What the sample beside each column is: 'A sample order from the file is shown beside each column.' */
  sampleNote: string;
  /** The button that goes on: 'Import', 'Preview'. */
  nextLabel?: string;
  onChange: (mapping: (Field | null)[]) => void;
  onBack: () => void;
  onImport: () => void;
}) {
  const { inspection, firstLine, mapping, problems } = props;
  const fieldOptions = [{ id: IGNORE, label: t('csvImport.mapping.ignore') }, ...props.fields];
  const rows = firstLine === 'data' ? [inspection.firstRow, ...inspection.sample] : inspection.sample;
  const { sample, refresh } = useSample(rows);

  return (
    <div className="import-step">
      <h3 className="import-step__title">{t('csvImport.mapping.title')}</h3>
      <div className="toolbar">
        <p className="muted">{props.sampleNote}</p>
        <Button onPress={refresh} isDisabled={rows.length < 2}>
          {t('csvImport.mapping.anotherSample')}
        </Button>
      </div>
      <ul className="mapping">
        {inspection.firstRow.map((heading, column) => {
          const numbered = t('csvImport.mapping.column', { number: column + 1 });
          const name = firstLine === 'fields' ? heading || numbered : numbered;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed for the file
            <li key={column} className="mapping__row">
              <Select
                label={name}
                options={fieldOptions}
                selectedKey={mapping[column] ?? IGNORE}
                onSelectionChange={(key) => {
                  const next = [...mapping];
                  next[column] = key === IGNORE || key === null ? null : (key as Field);
                  props.onChange(next);
                }}
              />
              <span className="mapping__sample">
                <span className="visually-hidden">{t('csvImport.mapping.sample')}</span>
                {sample[column] || t('csvImport.mapping.emptySample')}
              </span>
            </li>
          );
        })}
      </ul>
      {problems.length > 0 && (
        <Banner tone="warning" title={t('csvImport.mapping.problems')}>
          <ul className="problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Banner>
      )}
      <div className="form__actions">
        <Button onPress={props.onBack}>{t('csvImport.back')}</Button>
        <Button variant="primary" onPress={props.onImport} isDisabled={problems.length > 0}>
          {props.nextLabel ?? t('csvImport.mapping.import')}
        </Button>
      </div>
    </div>
  );
}

const errorColumns = (): VirtualColumn<RowError>[] => [
  { key: 'row', header: t('csvImport.errors.row'), width: '6rem', render: (e) => e.row },
  { key: 'error', header: t('csvImport.errors.error'), width: '1fr', render: (e) => e.errors.join('; ') },
];

/** The rows that were not imported (Row, Error), or 'No errors.'. */
export function ErrorTable({ errors }: { errors: RowError[] }) {
  return (
    <div className="import-errors">
      <h3 className="import-step__title">{t('csvImport.errors.title')}</h3>
      <VirtualList
        label={t('csvImport.errors.label')}
        columns={errorColumns()}
        items={errors}
        rowKey={(e) => `${e.row}:${e.errors.join()}`}
        hasMore={false}
        isLoading={false}
        onLoadMore={() => {}}
        emptyText={t('csvImport.errors.empty')}
      />
    </div>
  );
}
