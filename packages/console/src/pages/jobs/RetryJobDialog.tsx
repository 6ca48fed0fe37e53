import type { JobInfo } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { ConfirmAction } from '../../ui/Dialog.tsx';

/** Retry of a dead job, behind a confirmation: it runs again, with all its attempts. */
export function RetryJobDialog({ job, onClose }: { job: JobInfo; onClose: () => void }) {
  return (
    <ConfirmAction
      title="Retry job?"
      isOpen
      cancelLabel="Cancel"
      confirmLabel="Retry job"
      tone="primary"
      action={async () => {
        await rpc('jobs', 'retryJob', { id: job.id });
        await queryClient.invalidateQueries({ queryKey: ['jobs'] });
      }}
      onDone={onClose}
      onCancel={onClose}
    >
      <p>
        The {job.type} job will run again, with {job.maxAttempts} attempts. Its last error was:{' '}
        {job.lastError ?? 'none recorded'}.
      </p>
    </ConfirmAction>
  );
}
