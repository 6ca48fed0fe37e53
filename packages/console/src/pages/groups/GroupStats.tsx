import { type Business, groupComparisonMaxBusinesses, monthlyStatsCsv, toIsoDate } from '@medlocker/core';
import { useMemo, useState } from 'react';
import { CheckboxGroup, Label } from 'react-aria-components';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { groupStatsMonthAtom } from '../../state/stats.ts';
import { useUrlState } from '../../state/url-filter.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { MonthChart } from '../../ui/MonthChart.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Select } from '../../ui/Select.tsx';
import { StatsHead, useCsvExport } from '../stats/csv-export.tsx';
import { MonthField, monthCodec } from '../stats/MonthField.tsx';
import { MonthlyTable } from '../stats/MonthlyTable.tsx';
import { useGroup } from './GroupLayout.tsx';
import {
  allGroupBusinesses,
  comparisonView,
  type Measure,
  measureChartLabel,
  measureOptions,
  measures,
} from './group-comparison.ts';
import { t } from './i18n/index.ts';

/** The monthly figures of the chosen businesses over the 12 months ending at `last` (YYYY-MM). */
function useComparison(groupId: string, last: string, selected: string[]) {
  const input = {
    groupId,
    endMonth: Number(last.slice(5, 7)),
    endYear: Number(last.slice(0, 4)),
    selectedBusinessIds: selected,
  };
  return useQuery(
    (signal) =>
      selected.length === 0 ? Promise.resolve(null) : rpc('groupReports', 'listMonthlyStats', input, { signal }),
    ['groupReports', 'listMonthlyStats', groupId, last, ...selected],
  );
}

/**
 * `/groups/{groupId}/stats`: chosen businesses of the group compared over the 12 months
 * ending at the month picked: a chart of one figure per business, and the table with every figure of
 * each business and month, side by side, with the month's total; its CSV is what the table shows.
 */
export function GroupStats() {
  const { group } = useGroup();
  const thisMonth = toIsoDate(Date.now()).slice(0, 7);
  const [kept, setMonth] = useUrlState('month', groupStatsMonthAtom, monthCodec);
  const last = kept !== null && kept <= thisMonth ? kept : thisMonth;
  const [measure, setMeasure] = useState<Measure>('collected');
  const [chosen, setChosen] = useState<string[] | null>(null);
  const csv = useCsvExport();
  const businesses = useQuery(
    (signal) => allGroupBusinesses(group.id, signal),
    ['businesses', 'listGroupedBusinesses', group.id, 'all'],
  );
  // Until someone chooses, the first five businesses by name.
  const selected = chosen ?? (businesses.data ?? []).slice(0, 5).map((b) => b.id);
  const comparison = useComparison(group.id, last, selected);
  const data = comparison.data;
  const view = useMemo(() => (data ? comparisonView(data, measure) : null), [data, measure]);

  const exportCsv = () => {
    if (!view) return;
    void csv.exportCsv(() => ({
      name: `group-comparison-${last}.csv`,
      text: monthlyStatsCsv(view.rows, { withBusiness: true }),
    }));
  };

  return (
    <section className="subpage" aria-labelledby="group-stats">
      <StatsHead
        id="group-stats"
        title={t('groups.stats.title')}
        lead={t('groups.stats.lead')}
        exportLabel={t('groups.stats.export')}
        onExport={exportCsv}
        canExport={Boolean(view)}
        error={csv.error}
      />
      <QueryView query={businesses}>
        {(list) =>
          list.length === 0 ? (
            <p className="empty">{t('groups.stats.noBusinesses')}</p>
          ) : (
            <>
              <ComparisonControls
                last={last}
                thisMonth={thisMonth}
                onMonth={(m) => setMonth(m === thisMonth ? null : m)}
                measure={measure}
                onMeasure={setMeasure}
              />
              <BusinessChoice businesses={list} selected={selected} onChange={setChosen} />
              {selected.length === 0 ? (
                <p className="empty">{t('groups.stats.chooseSome')}</p>
              ) : (
                <QueryView query={comparison}>
                  {() =>
                    view && (
                      <>
                        <MonthChart
                          label={measureChartLabel(measure)}
                          summary={view.summary}
                          months={view.months}
                          series={view.series}
                          format={measures[measure].format}
                          steps={measures[measure].steps}
                        />
                        <MonthlyTable label={t('groups.stats.table')} rows={view.rows} withBusiness />
                      </>
                    )
                  }
                </QueryView>
              )}
            </>
          )
        }
      </QueryView>
    </section>
  );
}

/** Which of the group's businesses are compared (at most groupComparisonMaxBusinesses). */
function BusinessChoice({
  businesses,
  selected,
  onChange,
}: {
  businesses: Business[];
  selected: string[];
  onChange: (ids: string[]) => void;
}) {
  return (
    <CheckboxGroup
      className="checkbox-group"
      value={selected}
      onChange={(ids) => onChange(ids.slice(0, groupComparisonMaxBusinesses))}
    >
      <Label className="field__label">{t('groups.stats.compared')}</Label>
      {businesses.map((b) => (
        <Checkbox key={b.id} value={b.id}>
          {b.name}
        </Checkbox>
      ))}
    </CheckboxGroup>
  );
}

/** The last month shown and the figure the chart compares. */
function ComparisonControls({
  last,
  thisMonth,
  onMonth,
  measure,
  onMeasure,
}: {
  last: string;
  thisMonth: string;
  onMonth: (month: string) => void;
  measure: Measure;
  onMeasure: (measure: Measure) => void;
}) {
  return (
    <div className="toolbar">
      <MonthField label={t('groups.stats.lastMonth')} value={last} max={thisMonth} onChange={onMonth} />
      <Select
        label={t('groups.stats.chart')}
        options={measureOptions()}
        selectedKey={measure}
        onSelectionChange={(key) => onMeasure(key as Measure)}
      />
    </div>
  );
}
