// The allowed band lives with the locker protocol; core's index does not export the protocol (pure, no I/O).
import { formatDateTime, formatTemperature, temperatureRange } from '@medlocker/core';
import { useMemo } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { LineChart } from '../../ui/Chart.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';

/**
 * The temperature chart: recent readings against the allowed band (15–25 °C on the 3-hour average),
 * readings outside it marked, and the last excursion. Reloads when the hub pushes a new average.
 */
export function TemperatureTab({ machineId, updated }: { machineId: string; updated: number | null }) {
  const query = useQuery(
    (signal) => rpc('machines', 'getMachine', { id: machineId }, { signal }),
    ['machines', 'getMachine', machineId, updated],
  );
  const status = query.data?.machine.temperatureStatus ?? null;
  const points = useMemo(() => (status?.readings ?? []).map((r) => ({ at: r.created, value: r.value })), [status]);
  if (query.error) return <LoadError error={query.error} onRetry={query.reload} />;
  if (!query.data) return <Loading />;
  if (!status) return <p className="empty">No temperature readings yet.</p>;
  const excursion = status.average < temperatureRange.min || status.average > temperatureRange.max;
  const outside = points.filter((p) => p.value < temperatureRange.min || p.value > temperatureRange.max).length;
  return (
    <div className="temperature">
      {excursion && (
        <Banner tone="warning">
          Temperature excursion: the 3-hour average is {formatTemperature(status.average)}, outside{' '}
          {temperatureRange.min}–{temperatureRange.max}°C.
        </Banner>
      )}
      <dl className="details">
        <div className="details__item">
          <dt>3-hour average</dt>
          <dd>{formatTemperature(status.average)}</dd>
        </div>
        <div className="details__item">
          <dt>Allowed band</dt>
          <dd>
            {temperatureRange.min}–{temperatureRange.max}°C
          </dd>
        </div>
        <div className="details__item">
          <dt>Last excursion</dt>
          <dd>{status.lastExcursionAt ? formatDateTime(status.lastExcursionAt) : 'None'}</dd>
        </div>
        <div className="details__item">
          <dt>Updated</dt>
          <dd>{formatDateTime(status.updated)}</dd>
        </div>
      </dl>
      <LineChart
        label="Temperature readings"
        summary={`${points.length} readings, ${outside} outside the allowed band of ${temperatureRange.min} to ${temperatureRange.max} degrees.`}
        points={points}
        unit="°C"
        band={temperatureRange}
      />
    </div>
  );
}
