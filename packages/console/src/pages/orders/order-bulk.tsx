import { type BulkOrderAction, type BulkOrderOutcome, bulkOrdersMax, counted } from '@medlocker/core';
import { useRef, useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { useAllowed } from '../../state/access.ts';
import type { RowSelection } from '../../state/row-selection.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { ReasonDialog } from './ReasonDialog.tsx';

/** Each bulk action's words: its button, what was done, and the reason field of those that need one. */
const words: Record<BulkOrderAction, { button: string; done: string; reason?: string }> = {
  markRemoved: { button: 'Mark removed', done: 'marked removed' },
  cancel: { button: 'Cancel orders', done: 'cancelled', reason: 'Reason for cancelling' },
  resendReadyMessage: { button: 'Resend ready message', done: 'sent the ready message again' },
  holdPin: { button: 'Hold PINs', done: 'PIN held', reason: 'Reason for holding the PINs' },
  releasePin: { button: 'Release PINs', done: 'PIN released', reason: 'Reason for releasing the PINs' },
};
const actions = Object.keys(words) as BulkOrderAction[];

/** What a bulk call did: how many orders, which were refused and why. */
export type BulkSummary = { action: BulkOrderAction; done: number; refused: BulkOrderOutcome[] };

/** Runs a bulk call and refreshes every order list and the bags to remove (they follow the orders). */
export async function runBulk(ids: readonly string[], action: BulkOrderAction, reason?: string): Promise<BulkSummary> {
  const { outcomes } = await rpc('orders', 'bulkUpdate', { ids: [...ids], action, ...(reason ? { reason } : {}) });
  void queryClient.invalidateQueries({ queryKey: ['orders'] });
  void queryClient.invalidateQueries({ queryKey: ['bags'] });
  return { action, done: outcomes.filter((o) => o.ok).length, refused: outcomes.filter((o) => !o.ok) };
}

/** "3 orders cancelled." and, when some were refused, each one's reference and the reason (or a refusal of the whole call). */
export function BulkOutcome({ summary }: { summary: BulkSummary | string }) {
  if (typeof summary === 'string') return <Banner tone="error">{summary}</Banner>;
  const { action, done, refused } = summary;
  const doneText = `${counted(done, 'order')} ${words[action].done}.`;
  if (refused.length === 0) return <Banner tone="success">{doneText}</Banner>;
  return (
    <Banner tone="warning" title={`${doneText} Not done for ${counted(refused.length, 'order')}:`}>
      <ul aria-label="Orders not changed">
        {refused.map((o) => (
          <li key={o.id}>
            {o.reference ?? o.id}: {'message' in o ? o.message : ''}
          </li>
        ))}
      </ul>
    </Banner>
  );
}

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
    <div className="toolbar" role="toolbar" aria-label="Chosen orders">
      <span>{ids.length === 0 ? 'No orders chosen' : `${counted(ids.length, 'order')} chosen`}</span>
      <Button variant="quiet" onPress={matching} isPending={selecting}>
        Select all matching
      </Button>
      {allowed &&
        actions.map((action) => (
          <Button key={action} isDisabled={ids.length === 0 || tooMany} onPress={() => setOpen(action)}>
            {words[action].button}
          </Button>
        ))}
      <Button variant="quiet" isDisabled={ids.length === 0} onPress={selection.clear}>
        Clear selection
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
  const { button, reason } = words[action];
  const title = `${button}: ${counted(ids.length, 'order')}?`;
  if (reason) {
    return (
      <ReasonDialog
        title={title}
        label={reason}
        cancelLabel="Go back"
        confirmLabel={button}
        onConfirm={async (text) => onDone(await runBulk(ids, action, text))}
        onClose={onClose}
      />
    );
  }
  const summary = useRef<BulkSummary | undefined>(undefined);
  return (
    <ConfirmAction
      title={title}
      cancelLabel="Go back"
      confirmLabel={button}
      tone="primary"
      isOpen
      action={async () => {
        summary.current = await runBulk(ids, action);
      }}
      onDone={() => summary.current && onDone(summary.current)}
      onCancel={onClose}
    />
  );
}
