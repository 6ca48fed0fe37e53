import type { BulkOrderAction, BulkOrderOutcome } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { t } from './i18n/index.ts';

/*
 * A bulk call and its outcome, apart from the dialogs (order-bulk.tsx): the dashboard's Mark all removed
 * needs only these, and stays light.
 */

/** The bulk actions, in the order their buttons show; those that ask a reason first. */
export const bulkActions: readonly BulkOrderAction[] = [
  'markRemoved',
  'cancel',
  'resendReadyMessage',
  'holdPin',
  'releasePin',
];
const reasonIds = {
  cancel: 'orders.bulk.cancel.reason',
  holdPin: 'orders.bulk.holdPin.reason',
  releasePin: 'orders.bulk.releasePin.reason',
} as const satisfies Partial<Record<BulkOrderAction, string>>;
const reasonIdOf = (action: BulkOrderAction) =>
  action in reasonIds ? reasonIds[action as keyof typeof reasonIds] : null;

/** A bulk action's words (read when shown): its button, what was done, and its reason field's label if it asks one. */
export const bulkWords = (action: BulkOrderAction): { button: string; done: string; reason?: string } => {
  const reasonId = reasonIdOf(action);
  return {
    button: t(`orders.bulk.${action}.button` as const),
    done: t(`orders.bulk.${action}.done` as const),
    ...(reasonId ? { reason: t(reasonId) } : {}),
  };
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
  const doneText = t('orders.bulk.outcome.done', { count: done, done: bulkWords(action).done });
  if (refused.length === 0) return <Banner tone="success">{doneText}</Banner>;
  return (
    <Banner tone="warning" title={t('orders.bulk.outcome.refusedTitle', { done: doneText, count: refused.length })}>
      <ul aria-label={t('orders.bulk.outcome.refusedList')}>
        {refused.map((o) => (
          <li key={o.id}>
            {o.reference ?? o.id}: {'message' in o ? o.message : ''}
          </li>
        ))}
      </ul>
    </Banner>
  );
}
