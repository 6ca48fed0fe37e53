import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { Dialog, DialogFooter } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';
import { refreshWebhooks } from './webhook-parts.tsx';

const DAY = 24 * 60 * 60 * 1000;

/** ms → the value of a datetime-local field, in the browser's time zone ('2026-11-26T09:30'). */
const toLocalInput = (at: number) => {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
};

/** "Replay failed since…": every failed delivery made since the time chosen (a day ago unless changed). */
export function ReplayFailedDialog({
  businessId,
  onClose,
}: {
  businessId: string;
  onClose: (message?: string) => void;
}) {
  const [since, setSince] = useState(() => toLocalInput(Date.now() - DAY));
  const { pending, error, setError, run } = useAction();
  const at = new Date(since).getTime();
  const valid = since !== '' && Number.isFinite(at) && at >= 0;

  const submit = async () => {
    if (!valid) {
      setError(t('webhooks.replay.invalid'));
      return;
    }
    await run(async () => {
      const { replayed } = await rpc('webhooks', 'replayFailed', { businessId, since: at });
      await refreshWebhooks();
      onClose(replayed === 0 ? t('webhooks.replay.none') : t('webhooks.replay.queued', { replayed }));
    });
  };

  return (
    <Dialog title={t('webhooks.replay.title')} isOpen onOpenChange={(open) => !open && onClose()}>
      <Form className="dialog__body" error={error} guardUnsaved={false} submit={submit}>
        <p>{t('webhooks.replay.lead')}</p>
        <TextField
          label={t('webhooks.replay.since')}
          name="since"
          type="datetime-local"
          value={since}
          onChange={setSince}
          isRequired
          autoFocus
        />
        <DialogFooter onCancel={() => onClose()} pending={pending} submitLabel={t('webhooks.replay.submit')} />
      </Form>
    </Dialog>
  );
}
