// The allowed band lives with the locker protocol; core's index does not export the protocol (pure, no I/O).
import { formatDateTime, formatTemperature, temperatureRange } from '@medlocker/core';
import { useMemo } from 'react';
import { useRpcQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { LineChart } from '../../ui/Chart.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
import { t } from './i18n/index.ts';

/**
 * The temperature chart: recent readings against the allowed band (15–25 °C on the 3-hour average),
 * readings outside it marked, and the last excursion. Reloads when the hub pushes a new average.
 */
export function TemperatureTab({ machineId, updated }: { machineId: string; updated: number | null }) {
  const query = useRpcQuery(['machines', 'getMachine', machineId, updated], { id: machineId });
  const status = query.data?.machine.temperatureStatus ?? null;
  const points = useMemo(() => (status?.readings ?? []).map((r) => ({ at: r.created, value: r.value })), [status]);
  if (query.error) return <LoadError error={query.error} onRetry={query.reload} />;
  if (!query.data) return <Loading />;
  if (!status) return <p className="empty">{t('machines.temperature.none')}</p>;
  const excursion = status.average < temperatureRange.min || status.average > temperatureRange.max;
  const outside = points.filter((p) => p.value < temperatureRange.min || p.value > temperatureRange.max).length;
  return (
    <div className="temperature">
      {excursion && (
        <Banner tone="warning">
          {t('machines.temperature.excursion', {
            average: formatTemperature(status.average),
            min: temperatureRange.min,
            max: temperatureRange.max,
          })}
        </Banner>
      )}
      <dl className="details">
        <DetailsItem term={t('machines.temperature.average')}>{formatTemperature(status.average)}</DetailsItem>
        <DetailsItem term={t('machines.temperature.band')}>
          {t('machines.temperature.bandValue', { min: temperatureRange.min, max: temperatureRange.max })}
        </DetailsItem>
        <DetailsItem term={t('machines.temperature.lastExcursion')}>
          {status.lastExcursionAt ? formatDateTime(status.lastExcursionAt) : t('machines.temperature.noExcursion')}
        </DetailsItem>
        <DetailsItem term={t('machines.temperature.updated')}>{formatDateTime(status.updated)}</DetailsItem>
      </dl>
      <LineChart
        label={t('machines.temperature.chart')}
        summary={t('machines.temperature.chartSummary', {
          count: points.length,
          outside,
          min: temperatureRange.min,
          max: temperatureRange.max,
        })}
        points={points}
        unit={t('machines.temperature.unit')}
        band={temperatureRange}
      />
    </div>
  );
}
