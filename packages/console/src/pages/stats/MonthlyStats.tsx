import { formatMonth, monthlyStatsCsv, toIsoDate } from '@medlocker/core';
import { useMemo } from 'react';
import { useRpcQuery } from '../../api/queries.ts';
import { statsMonthAtom } from '../../state/stats.ts';
import { useUrlState } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { StatsHead, useCsvExport } from './csv-export.tsx';
import { t } from './i18n/index.ts';
import { MonthCharts } from './MonthCharts.tsx';
import { addMonths, MonthField, monthCodec } from './MonthField.tsx';
import { MonthlyTable } from './MonthlyTable.tsx';

const monthName = (month: string) => formatMonth(Number(month.slice(0, 4)), Number(month.slice(5, 7)));

/**
 * The monthly figures of a business on its stats page: the 12 months ending at the month
 * picked (default this month; never before the business was added), as charts and as the table with
 * every figure, and the CSV of exactly what the table shows.
 */
export function MonthlyStats({ businessId }: { businessId: string }) {
  const thisMonth = toIsoDate(Date.now()).slice(0, 7);
  const [kept, setMonth] = useUrlState('month', statsMonthAtom, monthCodec);
  const last = kept !== null && kept <= thisMonth ? kept : thisMonth;
  const csv = useCsvExport();
  const query = useRpcQuery(['reports', 'listBusinessStats', businessId, last], { businessId, lastDate: `${last}-01` });
  const stats = query.data?.stats;
  const oldestFirst = useMemo(() => (stats ? [...stats].reverse() : []), [stats]);
  const rows = useMemo(
    () => (stats ?? []).map((s) => ({ ...s, key: `${s.year}-${String(s.month).padStart(2, '0')}` })),
    [stats],
  );
  const first = rows.at(-1)?.key;

  const exportCsv = () =>
    csv.exportCsv(() => ({
      name: `monthly-figures-${first ?? last}-to-${last}.csv`,
      text: monthlyStatsCsv(stats ?? []),
    }));

  return (
    <section className="subpage" aria-labelledby="monthly-figures">
      <StatsHead
        id="monthly-figures"
        title={t('stats.monthly.title')}
        lead={t('stats.monthly.lead')}
        exportLabel={t('stats.monthly.export')}
        onExport={() => void exportCsv()}
        canExport={Boolean(stats && stats.length > 0)}
        error={csv.error}
      />
      <div className="toolbar">
        <MonthField
          label={t('stats.monthly.lastMonth')}
          value={last}
          max={thisMonth}
          onChange={(m) => setMonth(m === thisMonth ? null : m)}
        />
        <Button
          variant="quiet"
          onPress={() => setMonth(addMonths(last, -12))}
          isDisabled={query.data?.nextToken === null}
        >
          {t('stats.monthly.previous')}
        </Button>
        <Button
          variant="quiet"
          onPress={() => {
            const next = addMonths(last, 12);
            setMonth(next >= thisMonth ? null : next);
          }}
          isDisabled={last >= thisMonth}
        >
          {t('stats.monthly.next')}
        </Button>
      </div>
      <QueryView query={query}>
        {(data) =>
          data.stats.length === 0 ? (
            <p className="empty">{t('stats.monthly.addedAfter', { month: monthName(last) })}</p>
          ) : (
            <>
              <MonthCharts figures={oldestFirst} />
              <MonthlyTable label={t('stats.monthly.table')} rows={rows} />
            </>
          )
        }
      </QueryView>
    </section>
  );
}
