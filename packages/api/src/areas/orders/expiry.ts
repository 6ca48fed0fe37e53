import { systemActor } from '../../actor.ts';
import type { AppDeps } from '../../deps.ts';
import { expiresText } from './messages.ts';
import { claimExpiredOrders, insertOrderEventRows } from './repository.ts';
import { eventRow, publishOrder } from './service.ts';

/**
 * The expiry sweep (docs/ORDERS.md): each loaded order whose collection window has passed gets one
 * ORDER_EXPIRED event, in the transaction that marks it recorded. Its state does not change (Expired is
 * derived; the PIN already stopped at `expiresAt`). Consoles hear of each so lists show it as Expired.
 * Returns how many it recorded; call again until it returns less than `limit`.
 */
export async function recordExpiredOrders(deps: AppDeps, limit = 500): Promise<number> {
  const actor = systemActor('order-expiry');
  const now = deps.now();
  const expired = await deps.db.transaction().execute(async (tx) => {
    const rows = await claimExpiredOrders(tx, now, limit);
    await insertOrderEventRows(
      tx,
      rows.map((row) =>
        eventRow(deps, actor, row, 'ORDER_EXPIRED', `Expired: not collected by ${expiresText(Number(row.expires_at))}`),
      ),
    );
    return rows;
  });
  for (const row of expired) publishOrder(deps, row);
  return expired.length;
}
