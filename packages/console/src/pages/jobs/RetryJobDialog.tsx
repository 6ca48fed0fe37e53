import type { JobInfo } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { t } from './i18n/index.ts';

/** Retry of a dead job, behind a confirmation: it runs again, with all its attempts. */
export function RetryJobDialog({ job, onClose }: { job: JobInfo; onClose: () => void }) {
  return (
    <ConfirmAction
      title={t('jobs.retryDialog.title')}
      cancelLabel={t('jobs.retryDialog.cancel')}
      confirmLabel={t('jobs.retryDialog.confirm')}
      tone="primary"
      action={async () => {
        await rpc('jobs', 'retryJob', { id: job.id });
        await queryClient.invalidateQueries({ queryKey: ['jobs'] });
      }}
      onDone={onClose}
      onCancel={onClose}
    >
      <p>
        {t('jobs.retryDialog.body', {
          type: job.type,
          maxAttempts: job.maxAttempts,
          lastError: job.lastError ?? t('jobs.retryDialog.noError'),
        })}
      </p>
    </ConfirmAction>
  );
}
