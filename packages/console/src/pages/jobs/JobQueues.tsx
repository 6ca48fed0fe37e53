import { messageOf } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { t } from './i18n/index.ts';

/** Per job type, how many jobs wait, failed and wait again, run, and are dead (done ones are not counted). */
export function JobQueues() {
  const query = useRpcQuery(['jobs', 'listQueues'], {});
  if (query.error) return <p role="alert">{messageOf(query.error)}</p>;
  const queues = query.data?.queues;
  if (!queues) return null;
  if (queues.length === 0) return <p className="muted">{t('jobs.queues.none')}</p>;
  return (
    // In a box of its own that scrolls sideways on a phone: five columns of counts do not fit 390 px.
    <div className="table-scroll">
      <table className="job-queues" aria-label={t('jobs.queues.label')}>
        <thead>
          <tr>
            <th scope="col">{t('jobs.queues.queue')}</th>
            <th scope="col">{t('jobs.queues.waiting')}</th>
            <th scope="col">{t('jobs.queues.failed')}</th>
            <th scope="col">{t('jobs.queues.running')}</th>
            <th scope="col">{t('jobs.queues.dead')}</th>
          </tr>
        </thead>
        <tbody>
          {queues.map((q) => (
            <tr key={q.type}>
              <th scope="row">{q.type}</th>
              <td>{q.waiting}</td>
              <td>{q.failed}</td>
              <td>{q.running}</td>
              <td>{q.dead}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
