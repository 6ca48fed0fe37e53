import { formatDateTime, type JobInfo, type JobState } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { jobsStateAtom, jobsTypeAtom } from '../../state/jobs.ts';
import { choiceCodec, textCodec, useUrlState } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { Select } from '../../ui/Select.tsx';
import { JobQueues } from './JobQueues.tsx';
import { jobStates, StateBadge, stateLabels } from './job-parts.tsx';
import { RetryJobDialog } from './RetryJobDialog.tsx';

const stateCodec = choiceCodec<JobState>(jobStates);
const stateOptions = [{ id: 'all', label: 'All' }, ...jobStates.map((s) => ({ id: s, label: stateLabels[s] }))];

/**
 * `/jobs` (support): the background job queues with their counts, then the jobs newest first, filtered
 * by state and type in the URL (`?state=dead&type=message.send`); a dead job can be retried after a
 * confirmation.
 */
export function JobList() {
  const [state, setState] = useUrlState('state', jobsStateAtom, stateCodec);
  const [type, setType] = useUrlState('type', jobsTypeAtom, textCodec);
  const [retrying, setRetrying] = useState<JobInfo | null>(null);
  const queues = useQuery((signal) => rpc('jobs', 'listQueues', {}, { signal }), ['jobs', 'listQueues']);
  const types = [...new Set([...(queues.data?.queues.map((q) => q.type) ?? []), ...(type ? [type] : [])])];
  const columns: ListColumn<JobInfo>[] = [
    { key: 'queued', header: 'Queued', width: '11rem', render: (j) => formatDateTime(j.created) },
    { key: 'type', header: 'Type', width: 'minmax(8rem, 1fr)', render: (j) => j.type },
    { key: 'state', header: 'State', width: '6rem', render: (j) => <StateBadge state={j.state} /> },
    { key: 'attempts', header: 'Attempts', width: '5.5rem', render: (j) => `${j.attempts} of ${j.maxAttempts}` },
    { key: 'error', header: 'Last error', width: 'minmax(8rem, 2fr)', render: (j) => j.lastError ?? '' },
    {
      key: 'retry',
      header: 'Retry',
      width: '5rem',
      method: ['jobs', 'retryJob'],
      render: (j) =>
        j.state === 'dead' ? (
          <Button
            variant="quiet"
            onPress={() => setRetrying(j)}
            aria-label={`Retry the ${j.type} job queued ${formatDateTime(j.created)}`}
          >
            Retry
          </Button>
        ) : null,
    },
  ];

  return (
    <ListPage
      title="Jobs"
      lead="Background work: messages to send, webhooks, scheduled tasks."
      banner={<JobQueues />}
      filters={
        <>
          <Select
            label="State"
            options={stateOptions}
            selectedKey={state ?? 'all'}
            onSelectionChange={(key) => setState(key === 'all' || key === null ? null : (key as JobState))}
          />
          <Select
            label="Type"
            options={[{ id: 'all', label: 'All' }, ...types.map((t) => ({ id: t, label: t }))]}
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
      query={{
        key: ['jobs', 'listJobs', state, type],
        load: async (_search, nextToken) => {
          const page = await rpc('jobs', 'listJobs', {
            status: state ?? undefined,
            type: type || undefined,
            nextToken,
          });
          return { items: page.jobs, nextToken: page.nextToken };
        },
      }}
      label="Jobs"
      columns={columns}
      emptyText="No jobs found"
    >
      {retrying && <RetryJobDialog job={retrying} onClose={() => setRetrying(null)} />}
    </ListPage>
  );
}
