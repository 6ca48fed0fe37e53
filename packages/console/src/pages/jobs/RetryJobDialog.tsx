import type { JobInfo } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { ConfirmDialog } from '../../ui/Dialog.tsx';

/** Retry of a dead job, behind a confirmation: it runs again, with all its attempts. */
export function RetryJobDialog({ job, onClose }: { job: JobInfo; onClose: () => void }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const retry = async () => {
    setPending(true);
    setError(undefined);
    try {
      await rpc('jobs', 'retryJob', { id: job.id });
      await queryClient.invalidateQueries({ queryKey: ['jobs'] });
      onClose();
    } catch (e) {
      setError(messageOf(e));
      setPending(false);
    }
  };
  return (
    <ConfirmDialog
      title="Retry job?"
      isOpen
      onOpenChange={(open) => !open && !pending && onClose()}
      cancelLabel="Cancel"
      confirmLabel="Retry job"
      tone="primary"
      onConfirm={() => void retry()}
      isPending={pending}
      error={error}
    >
      <p>
        The {job.type} job will run again, with {job.maxAttempts} attempts. Its last error was:{' '}
        {job.lastError ?? 'none recorded'}.
      </p>
    </ConfirmDialog>
  );
}
