import {
  averagePickupMinutes,
  type Business,
  formatMinutes,
  formatMonth,
  formatPence,
  groupComparisonMaxBusinesses,
  type MonthFigures,
  monthlyStatsCsv,
  toIsoDate,
} from '@medlocker/core';
import { useMemo, useState } from 'react';
import { CheckboxGroup, Label } from 'react-aria-components';
import { type RpcOutput, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { groupStatsMonthAtom } from '../../state/stats.ts';
import { useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { chartColours, MonthChart } from '../../ui/MonthChart.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Select } from '../../ui/Select.tsx';
import { downloadCsv } from '../stats/download.ts';
import { MonthField, monthCodec } from '../stats/MonthField.tsx';
import { MonthlyTable, type MonthlyTableRow } from '../stats/MonthlyTable.tsx';
import { useGroup } from './GroupLayout.tsx';

/** The figures the comparison chart can put side by side. */
const measures = {
  collected: { label: 'Collected', of: (m: MonthFigures) => m.ordersCollected, format: String },
  added: { label: 'Orders added', of: (m: MonthFigures) => m.ordersAdded, format: String },
  paid: { label: 'Paid', of: (m: MonthFigures) => m.paidAmount, format: formatPence },
  pickup: { label: 'Average pickup', of: averagePickupMinutes, format: formatMinutes },
} as const;
type Measure = keyof typeof measures;
const measureOptions = Object.entries(measures).map(([id, m]) => ({ id, label: m.label }));

const shortMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Every business of the group, archived ones too (their months still count), by name. */
async function allGroupBusinesses(groupId: string, signal: AbortSignal): Promise<Business[]> {
  const out: Business[] = [];
  let nextToken: string | null = null;
  do {
    const page: { businesses: Business[]; nextToken: string | null } = await rpc(
      'businesses',
      'listGroupedBusinesses',
      { groupId, archived: true, nextToken },
      { signal },
    );
    out.push(...page.businesses);
    nextToken = page.nextToken;
  } while (nextToken !== null);
  return out;
}

type Comparison = RpcOutput<'groupReports', 'listMonthlyStats'>;

/** The chart's series of one figure, the table's rows (newest month first) and the chart's summary. */
function comparisonView(data: Comparison, measure: Measure) {
  const m = measures[measure];
  const months = data.months.map((x) => `${shortMonths[x.month - 1]} ${x.year}`);
  const series = data.businesses.map((b, i) => ({
    label: b.name,
    values: b.stats.map((s) => m.of(s)),
    colour: chartColours[i % chartColours.length] ?? '#000',
  }));
  const rows: (MonthlyTableRow & { businessName: string })[] = [];
  for (let i = data.months.length - 1; i >= 0; i--) {
    for (const b of data.businesses) {
      const s = b.stats[i];
      if (s) rows.push({ ...s, key: `${b.businessId}:${i}`, businessName: b.name });
    }
    const total = data.totals[i];
    if (total && data.businesses.length > 1) rows.push({ ...total, key: `total:${i}`, businessName: 'All chosen' });
  }
  const span = `${formatMonth(data.months[0]?.year ?? 0, data.months[0]?.month ?? 1)} to ${formatMonth(
    data.months.at(-1)?.year ?? 0,
    data.months.at(-1)?.month ?? 1,
  )}`;
  const sums = data.businesses.map((b) => `${b.name} ${m.format(b.stats.reduce((a, s) => a + (m.of(s) ?? 0), 0))}`);
  const summary =
    measure === 'pickup'
      ? `${span}: average pickup time per month for ${data.businesses.map((b) => b.name).join(', ')}.`
      : `${span}, ${m.label.toLowerCase()} in all: ${sums.join(', ')}.`;
  return { months, series, rows, summary, span };
}

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
 * `/groups/{groupId}/stats` (issue 21): chosen businesses of the group compared over the 12 months
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
  const [exportError, setExportError] = useState<string | null>(null);
  const businesses = useQuery(
    (signal) => allGroupBusinesses(group.id, signal),
    ['businesses', 'listGroupedBusinesses', group.id, 'all'],
  );
  // Until someone chooses, the first five businesses by name.
  const selected = chosen ?? (businesses.data ?? []).slice(0, 5).map((b) => b.id);
  const comparison = useComparison(group.id, last, selected);
  const data = comparison.data;
  const view = useMemo(() => (data ? comparisonView(data, measure) : null), [data, measure]);

  function exportCsv() {
    if (!view) return;
    try {
      downloadCsv(`group-comparison-${last}.csv`, monthlyStatsCsv(view.rows, { withBusiness: true }));
      setExportError(null);
    } catch (error) {
      setExportError((error as Error).message);
    }
  }

  return (
    <section className="subpage" aria-labelledby="group-stats">
      <ComparisonHead onExport={exportCsv} canExport={Boolean(view)} exportError={exportError} />
      <QueryView query={businesses}>
        {(list) =>
          list.length === 0 ? (
            <p className="empty">No businesses found</p>
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
                <p className="empty">Choose one or more businesses to compare.</p>
              ) : (
                <QueryView query={comparison}>
                  {() =>
                    view && (
                      <>
                        <MonthChart
                          label={`${measures[measure].label} per month by business`}
                          summary={view.summary}
                          months={view.months}
                          series={view.series}
                          format={measures[measure].format}
                        />
                        <MonthlyTable label="Comparison by month" rows={view.rows} withBusiness />
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
      <Label className="field__label">Businesses compared</Label>
      {businesses.map((b) => (
        <Checkbox key={b.id} value={b.id}>
          {b.name}
        </Checkbox>
      ))}
    </CheckboxGroup>
  );
}

/** The comparison's heading, its Export button and why an export failed. */
function ComparisonHead({
  onExport,
  canExport,
  exportError,
}: {
  onExport: () => void;
  canExport: boolean;
  exportError: string | null;
}) {
  return (
    <>
      <div className="section-head">
        <div>
          <h2 className="section-title" id="group-stats">
            Comparison
          </h2>
          <div className="page__lead">The group's businesses side by side, month by month (London time).</div>
        </div>
        <div className="page__actions">
          <Button onPress={onExport} isDisabled={!canExport}>
            Export comparison CSV
          </Button>
        </div>
      </div>
      {exportError && (
        <Banner tone="error" title="The CSV could not be made">
          {exportError}
        </Banner>
      )}
    </>
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
      <MonthField label="Last month shown" value={last} max={thisMonth} onChange={onMonth} />
      <Select
        label="Chart"
        options={measureOptions}
        selectedKey={measure}
        onSelectionChange={(key) => onMeasure(key as Measure)}
      />
    </div>
  );
}
