import { type CsvRecord, type OrderCsvMapping, orderCsvColumnLabels, type RowError } from '@medlocker/core';
import { Button } from '../../../ui/Button.tsx';
import { type VirtualColumn, VirtualList } from '../../../ui/VirtualList.tsx';
import { t } from './i18n/index.ts';

/** How many rows the preview shows (the rest are checked the same way; their errors are in the counts). */
export const previewRows = 20;

type PreviewRow = CsvRecord & { errors: string[] };

/**
 * The first rows as they will be read, each mapped field in its own column and the row's errors (SPEC §5
 * words) beside it; then how many rows will be created and how many will not.
 */
export function OrderPreview({
  records,
  mapping,
  errors,
  goodCount,
  onBack,
  onCreate,
}: {
  records: readonly CsvRecord[];
  mapping: OrderCsvMapping;
  errors: readonly RowError[];
  goodCount: number;
  onBack: () => void;
  onCreate: () => void;
}) {
  const errorsByRow = new Map(errors.map((e) => [e.row, e.errors]));
  const rows: PreviewRow[] = records.slice(0, previewRows).map((r) => ({ ...r, errors: errorsByRow.get(r.row) ?? [] }));
  const mapped = mapping.flatMap((column, i) => (column ? [{ column, i }] : []));
  const columns: VirtualColumn<PreviewRow>[] = [
    { key: 'row', header: t('orderImport.preview.row'), width: '4rem', render: (r) => r.row },
    ...mapped.map(({ column, i }) => ({
      key: column,
      header: orderCsvColumnLabels[column],
      width: 'minmax(6rem, 1fr)',
      render: (r: PreviewRow) => r.cells[i] ?? '',
    })),
    {
      key: 'errors',
      header: t('orderImport.preview.errors'),
      width: 'minmax(10rem, 2fr)',
      render: (r) => (r.errors.length === 0 ? t('orderImport.preview.noErrors') : r.errors.join('; ')),
    },
  ];
  return (
    <div className="import-step">
      <h3 className="import-step__title">{t('orderImport.preview.title')}</h3>
      <p>
        {t('orderImport.preview.counts', { rows: records.length, good: goodCount, bad: errors.length })}
        {records.length > previewRows && t('orderImport.preview.firstRows', { count: previewRows })}
      </p>
      <VirtualList
        label={t('orderImport.preview.label')}
        columns={columns}
        items={rows}
        rowKey={(r) => String(r.row)}
        hasMore={false}
        isLoading={false}
        onLoadMore={() => {}}
        emptyText={t('orderImport.preview.empty')}
      />
      <div className="form__actions">
        <Button onPress={onBack}>{t('orderImport.preview.back')}</Button>
        <Button variant="primary" onPress={onCreate} isDisabled={goodCount === 0}>
          {goodCount === 0
            ? t('orderImport.preview.createNone')
            : t('orderImport.preview.create', { count: goodCount })}
        </Button>
      </div>
    </div>
  );
}
