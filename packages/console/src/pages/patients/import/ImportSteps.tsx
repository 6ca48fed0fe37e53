import {
  type CsvFieldKind,
  type CsvInspection,
  type CsvMapping,
  checkMapping,
  csvFieldKinds,
  csvFieldLabels,
  type RowError,
} from '@medlocker/core';
import { useState } from 'react';
import { Banner } from '../../../ui/Banner.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Select } from '../../../ui/Select.tsx';
import { type VirtualColumn, VirtualList } from '../../../ui/VirtualList.tsx';

const IGNORE = 'ignore';
const fieldOptions = [
  { id: IGNORE, label: 'Ignore' },
  ...csvFieldKinds.map((kind) => ({ id: kind, label: csvFieldLabels[kind] })),
];

/** 'Is the first line patient data or field names?', showing the first line. */
export function FirstLineStep(props: {
  firstRow: string[];
  onChoose: (choice: 'data' | 'fields') => void;
  onBack: () => void;
}) {
  return (
    <div className="import-step">
      <h3 className="import-step__title">What is on the first line of the file?</h3>
      <p className="import-first-line">
        <code>{props.firstRow.join(', ')}</code>
      </p>
      <div className="form__actions">
        <Button onPress={props.onBack}>Back</Button>
        <Button variant="primary" onPress={() => props.onChoose('data')}>
          Patient data
        </Button>
        <Button variant="primary" onPress={() => props.onChoose('fields')}>
          Field names
        </Button>
      </div>
    </div>
  );
}

/** One Select per column, a random sample row beside it (with a refresh), and checkMapping's refusals. */
export function MappingStep(props: {
  inspection: CsvInspection;
  firstLine: 'data' | 'fields';
  mapping: CsvMapping;
  onChange: (mapping: CsvMapping) => void;
  onBack: () => void;
  onImport: () => void;
}) {
  const { inspection, firstLine, mapping } = props;
  const rows = firstLine === 'data' ? [inspection.firstRow, ...inspection.sample] : inspection.sample;
  const [sampleIndex, setSampleIndex] = useState(() => Math.floor(Math.random() * rows.length));
  const sample = rows[sampleIndex] ?? [];
  const problems = checkMapping(mapping);

  const refresh = () => {
    if (rows.length < 2) return;
    let next = sampleIndex;
    while (next === sampleIndex) next = Math.floor(Math.random() * rows.length);
    setSampleIndex(next);
  };

  return (
    <div className="import-step">
      <h3 className="import-step__title">Choose the field each column holds</h3>
      <div className="toolbar">
        <p className="muted">A sample patient from the file is shown beside each column.</p>
        <Button onPress={refresh} isDisabled={rows.length < 2}>
          Show another sample
        </Button>
      </div>
      <ul className="mapping">
        {inspection.firstRow.map((heading, column) => {
          const name = firstLine === 'fields' ? heading || `Column ${column + 1}` : `Column ${column + 1}`;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed for the file
            <li key={column} className="mapping__row">
              <Select
                label={name}
                options={fieldOptions}
                selectedKey={mapping[column] ?? IGNORE}
                onSelectionChange={(key) => {
                  const next = [...mapping];
                  next[column] = key === IGNORE || key === null ? null : (key as CsvFieldKind);
                  props.onChange(next);
                }}
              />
              <span className="mapping__sample">
                <span className="visually-hidden">Sample: </span>
                {sample[column] || '—'}
              </span>
            </li>
          );
        })}
      </ul>
      {problems.length > 0 && (
        <Banner tone="warning" title="The mapping cannot be imported yet">
          <ul className="problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Banner>
      )}
      <div className="form__actions">
        <Button onPress={props.onBack}>Back</Button>
        <Button variant="primary" onPress={props.onImport} isDisabled={problems.length > 0}>
          Import
        </Button>
      </div>
    </div>
  );
}

const errorColumns: VirtualColumn<RowError>[] = [
  { key: 'row', header: 'Row', width: '6rem', render: (e) => e.row },
  { key: 'error', header: 'Error', width: '1fr', render: (e) => e.errors.join('; ') },
];

/** The rows that were not imported (Row, Error), or 'No errors.'. */
export function ErrorTable({ errors }: { errors: RowError[] }) {
  return (
    <div className="import-errors">
      <h3 className="import-step__title">Errors</h3>
      <VirtualList
        label="Import errors"
        columns={errorColumns}
        items={errors}
        rowKey={(e) => `${e.row}:${e.errors.join()}`}
        hasMore={false}
        isLoading={false}
        onLoadMore={() => {}}
        emptyText="No errors."
      />
    </div>
  );
}
