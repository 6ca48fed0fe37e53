import { type CsvRecord, csvText, labelsMax, type RowError } from '@medlocker/core';
import { lazy, Suspense } from 'react';
import { orderPaths } from '../../../paths.ts';
import { Button } from '../../../ui/Button.tsx';
import { downloadCsv } from '../../../ui/download.ts';
import { Link } from '../../../ui/Link.tsx';
import { Loading } from '../../../ui/Page.tsx';
import { type VirtualColumn, VirtualList } from '../../../ui/VirtualList.tsx';
import { ErrorTable } from '../../csv-import/CsvSteps.tsx';
import { t } from './i18n/index.ts';
import type { CreatedOrder } from './use-order-creation.ts';

// The labels load with their own chunk (bwip-js), only when an import prints them.
const LabelSheet = lazy(() => import('../labels/LabelSheet.tsx').then((m) => ({ default: m.LabelSheet })));

/** The failed rows as the file had them, with an Errors column: fixed, the file can be imported again. */
export function failedRowsCsv(header: readonly string[] | null, records: readonly CsvRecord[], failed: RowError[]) {
  const reasons = new Map(failed.map((f) => [f.row, f.errors.join('; ')]));
  const rows = records.filter((r) => reasons.has(r.row));
  const width = Math.max(header?.length ?? 0, ...rows.map((r) => r.cells.length));
  const columnName = (i: number) => t('orderImport.import.column', { number: i + 1 });
  const names = header ? [...header] : Array.from({ length: width }, (_, i) => columnName(i));
  while (names.length < width) names.push(columnName(names.length));
  return csvText(
    [...names, t('orderImport.import.errorsColumn')],
    rows.map((r) => [...r.cells, ...Array(width - r.cells.length).fill(''), reasons.get(r.row)]),
  );
}

const createdColumns = (businessId: string): VirtualColumn<CreatedOrder>[] => [
  { key: 'row', header: t('orderImport.import.row'), width: '6rem', render: (o) => o.row },
  {
    key: 'reference',
    header: t('orderImport.import.order'),
    width: '1fr',
    render: (o) => <Link href={orderPaths.order(businessId, o.id)}>{o.reference}</Link>,
  },
  { key: 'barcode', header: t('orderImport.import.barcode'), width: '1fr', render: (o) => o.barcode },
];

/**
 * What the import did: the orders created (each linking to its page) and every row that was not, with
 * its reason, downloadable as CSV. With autoBarcodes.autoPrint, the created orders' labels are drawn on
 * one sheet or roll and the browser's print opens (at most `labelsMax` at once; more get Print links).
 */
export function OrderImportResult({
  businessId,
  cancelled,
  created,
  failed,
  failedCsv,
  autoPrint,
}: {
  businessId: string;
  cancelled: boolean;
  created: CreatedOrder[];
  failed: RowError[];
  failedCsv: () => string;
  autoPrint: boolean;
}) {
  const ids = created.map((o) => o.id);
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += labelsMax) batches.push(ids.slice(i, i + labelsMax));
  return (
    <>
      <div className="import-result" role="status">
        <h3 className="import-result__title">
          {cancelled ? t('orderImport.import.cancelled') : t('orderImport.import.complete')}
        </h3>
        <p>{t('orderImport.import.counts', { created: created.length, failed: failed.length })}</p>
      </div>
      <div className="import-errors">
        <h3 className="import-step__title">{t('orderImport.import.createdOrders')}</h3>
        <VirtualList
          label={t('orderImport.import.createdOrders')}
          columns={createdColumns(businessId)}
          items={created}
          rowKey={(o) => o.id}
          hasMore={false}
          isLoading={false}
          onLoadMore={() => {}}
          emptyText={t('orderImport.import.noneCreated')}
        />
      </div>
      <ErrorTable errors={failed} />
      <div className="form__actions">
        {failed.length > 0 && (
          <Button onPress={() => downloadCsv('orders-not-created.csv', failedCsv())}>
            {t('orderImport.import.downloadFailed')}
          </Button>
        )}
        {batches.map((batch, i) => (
          <Link key={batch[0]} href={orderPaths.labels(businessId, batch)} variant="button">
            {batches.length === 1
              ? t('orderImport.import.printCount', { count: batch.length })
              : t('orderImport.import.printRange', { from: i * labelsMax + 1, to: i * labelsMax + batch.length })}
          </Link>
        ))}
        <Link href={orderPaths.list(businessId)} variant="primary-button">
          {t('orderImport.import.done')}
        </Link>
      </div>
      {autoPrint && batches.length === 1 && batches[0] && (
        <section aria-label={t('orderImport.import.labelsSection')}>
          <h3 className="import-step__title">{t('orderImport.import.labelsTitle')}</h3>
          <Suspense fallback={<Loading />}>
            <LabelSheet ids={batches[0]} />
          </Suspense>
        </section>
      )}
    </>
  );
}
