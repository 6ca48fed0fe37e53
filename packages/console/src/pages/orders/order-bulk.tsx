import { type BulkOrderAction, bulkOrdersMax } from '@medlocker/core';
import { useRef, useState } from 'react';
import { messageOf } from '../../api/client.ts';
import { useAllowed } from '../../state/access.ts';
import type { RowSelection } from '../../state/row-selection.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { t } from './i18n/index.ts';
import { BulkOutcome, type BulkSummary, bulkActions, bulkWords, runBulk } from './order-bulk-outcome.tsx';
import { ReasonDialog } from './ReasonDialog.tsx';

export { BulkOutcome, type BulkSummary };

/**
 * The chosen orders' actions above an order list: the count, "Select all matching" (the server's ids for
 * the list's filters, at most 200), each bulk action (a reason asked where the single action asks one,
 * else a confirmation) and Clear. After a call the outcome shows; the refused orders stay chosen.
 */
export function BulkOrderBar({
  selection,
  selectMatching,
  onOutcome,
}: {
  selection: RowSelection;
  selectMatching: () => Promise<readonly string[]>;
  onOutcome: (summary: BulkSummary | string) => void;
}) {
  const [open, setOpen] = useState<BulkOrderAction | null>(null);
  const [selecting, setSelecting] = useState(false);
  const allowed = useAllowed([{ key: 'bulk', method: ['orders', 'bulkUpdate'] as const }]).length > 0;
  const ids = selection.ids;
  const finish = (summary: BulkSummary) => {
    setOpen(null);
    selection.clear();
    selection.set(
      summary.refused.map((o) => o.id),
      true,
    );
    onOutcome(summary);
  };
  const matching = async () => {
    setSelecting(true);
    try {
      selection.set(await selectMatching(), true);
    } catch (e) {
      onOutcome(messageOf(e));
    } finally {
      setSelecting(false);
    }
  };
  const tooMany = ids.length > bulkOrdersMax;
  return (
    <div className="toolbar" role="toolbar" aria-label={t('orders.bulk.toolbar')}>
      <span>{ids.length === 0 ? t('orders.bulk.noneChosen') : t('orders.bulk.chosen', { count: ids.length })}</span>
      <Button variant="quiet" onPress={matching} isPending={selecting}>
        {t('orders.bulk.selectMatching')}
      </Button>
      {allowed &&
        bulkActions.map((action) => (
          <Button key={action} isDisabled={ids.length === 0 || tooMany} onPress={() => setOpen(action)}>
            {bulkWords(action).button}
          </Button>
        ))}
      <Button variant="quiet" isDisabled={ids.length === 0} onPress={selection.clear}>
        {t('orders.bulk.clear')}
      </Button>
      {open && <BulkDialog action={open} ids={ids} onDone={finish} onClose={() => setOpen(null)} />}
    </div>
  );
}

/** The confirmation of one bulk action: a reason where it needs one. */
function BulkDialog({
  action,
  ids,
  onDone,
  onClose,
}: {
  action: BulkOrderAction;
  ids: readonly string[];
  onDone: (summary: BulkSummary) => void;
  onClose: () => void;
}) {
  const { button, reason } = bulkWords(action);
  const summary = useRef<BulkSummary | undefined>(undefined);
  const title = t('orders.bulk.title', { action: button, count: ids.length });
  if (reason) {
    return (
      <ReasonDialog
        title={title}
        label={reason}
        cancelLabel={t('orders.bulk.goBack')}
        confirmLabel={button}
        onConfirm={async (text) => onDone(await runBulk(ids, action, text))}
        onClose={onClose}
      />
    );
  }
  return (
    <ConfirmAction
      title={title}
      cancelLabel={t('orders.bulk.goBack')}
      confirmLabel={button}
      tone="primary"
      action={async () => {
        summary.current = await runBulk(ids, action);
      }}
      onDone={() => summary.current && onDone(summary.current)}
      onCancel={onClose}
    />
  );
}
