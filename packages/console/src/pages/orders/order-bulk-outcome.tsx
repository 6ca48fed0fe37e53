import { type BulkOrderAction, type BulkOrderOutcome, counted } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';

/*
 * A bulk call and its outcome, apart from the dialogs (order-bulk.tsx): the dashboard's Mark all removed
 * needs only these, and stays light.
 */

/** Each bulk action's words: its button, what was done, and the reason field of those that need one. */
export const bulkWords: Record<BulkOrderAction, { button: string; done: string; reason?: string }> = {
  markRemoved: { button: 'Mark removed', done: 'marked removed' },
  cancel: { button: 'Cancel orders', done: 'cancelled', reason: 'Reason for cancelling' },
  resendReadyMessage: { button: 'Resend ready message', done: 'sent the ready message again' },
  holdPin: { button: 'Hold PINs', done: 'PIN held', reason: 'Reason for holding the PINs' },
  releasePin: { button: 'Release PINs', done: 'PIN released', reason: 'Reason for releasing the PINs' },
};
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
  const doneText = `${counted(done, 'order')} ${bulkWords[action].done}.`;
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
