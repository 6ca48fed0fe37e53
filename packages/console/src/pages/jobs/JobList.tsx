import { formatDateTime, type JobInfo, type JobState } from '@medlocker/core';
import { useState } from 'react';
import { useRpcQuery } from '../../api/queries.ts';
import { jobsStateAtom, jobsTypeAtom } from '../../state/jobs.ts';
import { choiceCodec, textCodec, useUrlState } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { createdColumn, type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Select } from '../../ui/Select.tsx';
import { t } from './i18n/index.ts';
import { JobQueues } from './JobQueues.tsx';
import { jobStates, StateBadge, stateLabel } from './job-parts.tsx';
import { RetryJobDialog } from './RetryJobDialog.tsx';

const stateCodec = choiceCodec<JobState>(jobStates);

/**
 * `/jobs` (support): the background job queues with their counts, then the jobs newest first, filtered
 * by state and type in the URL (`?state=dead&type=message.send`); a dead job can be retried after a
 * confirmation.
 */
export function JobList() {
  const [state, setState] = useUrlState('state', jobsStateAtom, stateCodec);
  const [type, setType] = useUrlState('type', jobsTypeAtom, textCodec);
  const [retrying, setRetrying] = useState<JobInfo | null>(null);
  const all = { id: 'all', label: t('jobs.all') };
  const stateOptions = [all, ...jobStates.map((s) => ({ id: s, label: stateLabel(s) }))];
  const queues = useRpcQuery(['jobs', 'listQueues'], {});
  const types = [...new Set([...(queues.data?.queues.map((q) => q.type) ?? []), ...(type ? [type] : [])])];
  const columns = jobColumns(setRetrying);

  return (
    <ListPage
      title={t('jobs.title')}
      lead={t('jobs.lead')}
      banner={<JobQueues />}
      filters={
        <>
          <Select
            label={t('jobs.filter.state')}
            options={stateOptions}
            selectedKey={state ?? 'all'}
            onSelectionChange={(key) => setState(key === 'all' || key === null ? null : (key as JobState))}
          />
          <Select
            label={t('jobs.filter.type')}
            options={[all, ...types.map((name) => ({ id: name, label: name }))]}
            selectedKey={type || 'all'}
            onSelectionChange={(key) => setType(key === 'all' || key === null ? '' : String(key))}
          />
        </>
      }
      clearFilters={() => {
        setState(null);
        setType('');
      }}
      filtered={state !== null || type !== ''}
      query={rpcListQuery(['jobs', 'listJobs', state, type], 'jobs', (_search, nextToken) => ({
        status: state ?? undefined,
        type: type || undefined,
        nextToken,
      }))}
      label={t('jobs.title')}
      columns={columns}
      emptyText={t('jobs.empty')}
    >
      {retrying && <RetryJobDialog job={retrying} onClose={() => setRetrying(null)} />}
    </ListPage>
  );
}

/** The jobs list's columns; a dead job's Retry opens the confirmation. */
function jobColumns(retry: (job: JobInfo) => void): ListColumn<JobInfo>[] {
  return [
    createdColumn('queued', t('jobs.column.queued')),
    { key: 'type', header: t('jobs.column.type'), width: 'minmax(8rem, 1fr)', render: (j) => j.type },
    { key: 'state', header: t('jobs.column.state'), width: '6rem', render: (j) => <StateBadge state={j.state} /> },
    {
      key: 'attempts',
      header: t('jobs.column.attempts'),
      width: '5.5rem',
      render: (j) => t('jobs.attempts', { attempts: j.attempts, maxAttempts: j.maxAttempts }),
    },
    { key: 'error', header: t('jobs.column.lastError'), width: 'minmax(8rem, 2fr)', render: (j) => j.lastError ?? '' },
    {
      key: 'retry',
      header: t('jobs.column.retry'),
      width: '5rem',
      method: ['jobs', 'retryJob'],
      render: (j) =>
        j.state === 'dead' ? (
          <Button
            variant="quiet"
            onPress={() => retry(j)}
            aria-label={t('jobs.retryLabel', { type: j.type, queued: formatDateTime(j.created) })}
          >
            {t('jobs.retry')}
          </Button>
        ) : null,
    },
  ];
}
