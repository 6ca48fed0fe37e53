import {
  type CollectionFilter,
  type CollectionRecord,
  collectionFilters,
  collectionRecordCells,
  collectionRecordColumns,
  collectionRecordsCsv,
  isIsoDate,
  toIsoDate,
} from '@medlocker/core';
import { useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { collectionFilterAtom, statsFromAtom, statsToAtom } from '../../state/stats.ts';
import { choiceCodec, type UrlCodec, useUrlState } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Select } from '../../ui/Select.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { CsvError, useCsvExport } from './csv-export.tsx';
import { t } from './i18n/index.ts';
import { NativeDateField } from './MonthField.tsx';
import { MonthlyStats } from './MonthlyStats.tsx';

const filterCodec = choiceCodec<CollectionFilter>(collectionFilters);
/** A day in the address: a real YYYY-MM-DD date, else none (the default). */
const dayCodec: UrlCodec<string | null> = { parse: (t) => (isIsoDate(t) ? t : null), format: (v) => v };
const filterOptions = collectionFilters.map((f) => ({ id: f, label: f }));

/**
 * The table: the CSV's columns (core's collectionRecordColumns) with Auto exempt folded into Exemption
 * ("F", "Auto", "F (auto)") so all of it fits the page without scrolling sideways.
 */
const column = (i: number, width: string, header = collectionRecordColumns[i] ?? ''): ListColumn<CollectionRecord> => ({
  key: header,
  header,
  width,
  render: (r) => collectionRecordCells(r)[i],
});
const exemptionOf = (r: CollectionRecord) =>
  r.autoExempt
    ? r.exemptionCode
      ? t('stats.records.autoExemptCode', { code: r.exemptionCode })
      : t('stats.records.autoExempt')
    : (r.exemptionCode ?? '');
const columns = (): ListColumn<CollectionRecord>[] => [
  column(0, '4.5rem'),
  column(1, 'minmax(6rem, 1fr)'),
  column(2, '11rem'),
  column(3, '4.5rem'),
  column(4, '6rem'),
  column(5, '4.5rem'),
  { key: 'exemption', header: t('stats.records.exemption'), width: '5.5rem', render: exemptionOf },
  column(8, '4.5rem'),
];

/** A London day as YYYY-MM-DD, from the browser's date picker. */
const DayField = (props: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (day: string) => void;
}) => <NativeDateField type="date" {...props} accepts={isIsoDate} />;

/**
 * `/businesses/{businessId}/stats` (SPEC §2): the monthly figures (charts and table, their
 * CSV), then the collection records between two London days, by filter, 50 at a time, and their CSV
 * (every record of the filter and days, not only the pages loaded).
 */
export function BusinessStats() {
  const { business } = useBusiness();
  const { businessId = business.id } = useParams();
  const today = toIsoDate(Date.now());
  const [filter, setFilter] = useUrlState('filter', collectionFilterAtom, filterCodec);
  const [fromKept, setFrom] = useUrlState('from', statsFromAtom, dayCodec);
  const [toKept, setTo] = useUrlState('to', statsToAtom, dayCodec);
  const from = fromKept ?? `${today.slice(0, 8)}01`;
  const to = toKept ?? today;
  const csv = useCsvExport();
  const input = { businessId, startDate: from, endDate: to, filterType: filter ?? 'All' } as const;

  const exportCsv = () =>
    csv.exportCsv(async () => {
      const all = await rpc('reports', 'listCollectionStats', { ...input, getAll: true });
      const name = `collection-records-${input.filterType.toLowerCase().replaceAll(' ', '-')}-${from}-to-${to}.csv`;
      return { name, text: collectionRecordsCsv(all.records) };
    });

  return (
    <>
      <MonthlyStats businessId={businessId} />
      <ListPage
        title={t('stats.records.title')}
        frame="section"
        lead={t('stats.records.lead')}
        banner={<CsvError error={csv.error} />}
        filters={
          <>
            <DayField label={t('stats.records.from')} value={from} max={to} onChange={(d) => setFrom(d)} />
            <DayField label={t('stats.records.to')} value={to} min={from} onChange={(d) => setTo(d)} />
            <Select
              label={t('stats.records.filter')}
              options={filterOptions}
              selectedKey={filter ?? 'All'}
              onSelectionChange={(key) => setFilter(key === 'All' ? null : (key as CollectionFilter))}
            />
          </>
        }
        clearFilters={() => {
          setFilter(null);
          setFrom(null);
          setTo(null);
        }}
        filtered={filter !== null || fromKept !== null || toKept !== null}
        query={rpcListQuery(
          ['reports', 'listCollectionStats', businessId, input.filterType, from, to],
          'records',
          (_search, nextToken) => ({ ...input, nextToken }),
        )}
        actions={[
          {
            key: 'export',
            method: ['reports', 'listCollectionStats'],
            element: (
              <Button onPress={() => void exportCsv()} isDisabled={csv.exporting}>
                {t('stats.records.export')}
              </Button>
            ),
          },
        ]}
        label={t('stats.records.title')}
        columns={columns()}
        emptyText={t('stats.records.empty')}
      />
    </>
  );
}
