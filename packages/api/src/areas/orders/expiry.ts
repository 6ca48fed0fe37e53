import type { Order } from '@medlocker/core';
import { systemActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { emitOrderEvent, inBusinessOrder } from '../../delivery/webhooks/emit.ts';
import { claimExpiredOrders, claimOrdersToRemind } from './expiry-repository.ts';
import { toOrder } from './mapping-repository.ts';
import { expiresText, queueOrderMessage } from './messages.ts';
import { eventRow, publishOrder } from './moves.ts';
import { insertOrderEventRows } from './repository.ts';

/** How long before its expiry a patient is reminded to collect (or half the window, if shorter). */
export const expiryReminderLeadMs = 24 * 60 * 60_000;

/** The dedupe key of an order's expiry reminder: once per expiry, so a changed expiry is reminded again. */
export const reminderKey = (order: Pick<Order, 'id' | 'expiresAt'>) =>
  `order:${order.id}:orderExpiring:${order.expiresAt}`;

/**
 * The expiry sweep (docs/ORDERS.md): each loaded order whose collection window has passed gets one
 * ORDER_EXPIRED event and its patient the expired message, in the transaction that marks it recorded.
 * Its state does not change (Expired is derived; the PIN already stopped at `expiresAt`). Consoles hear
 * of each so lists show it as Expired. Returns how many it recorded; call again until it returns less
 * than `limit`.
 */
export async function recordExpiredOrders(deps: AppDeps, limit = 500): Promise<number> {
  const actor = systemActor('order-expiry');
  const now = deps.now();
  const expired = await deps.db.transaction().execute(async (tx) => {
    const rows = await claimExpiredOrders(tx, now, limit);
    await insertOrderEventRows(
      tx,
      rows.map((row) =>
        eventRow(deps, actor, row, 'ORDER_EXPIRED', `Expired: not collected by ${expiresText(Number(row.expiresAt))}`),
      ),
    );
    for (const row of inBusinessOrder(rows, (o) => o.businessId)) {
      const order = toOrder(row);
      await emitOrderEvent(tx, deps, 'order.expired', order);
      await queueOrderMessage(tx, deps, order, 'orderExpired', {
        dedupeKey: `order:${order.id}:orderExpired:${order.expiresAt}`,
      });
    }
    return rows;
  });
  for (const row of expired) publishOrder(deps, row);
  return expired.length;
}

/**
 * The expiry reminders (`orderExpiring`): each loaded order whose expiry is within a day (or half its
 * window, for a one-day window) and not yet reminded of gets the reminder once, queued in the
 * transaction that marks it reminded (docs/decisions/messaging.md, Patient messages). A business with
 * `sendOrderExpiringSms` off is marked but sent nothing. Returns how many orders it took; call again
 * until it returns less than `limit`.
 */
export async function sendExpiryReminders(deps: AppDeps, limit = 200): Promise<number> {
  const now = deps.now();
  const reminded = await deps.db.transaction().execute(async (tx) => {
    const rows = await claimOrdersToRemind(tx, now, expiryReminderLeadMs, limit);
    for (const row of rows) await queueOrderMessage(tx, deps, row, 'orderExpiring', { dedupeKey: reminderKey(row) });
    return rows;
  });
  return reminded.length;
}

/** Runs a batch job until a batch comes back short (or `maxBatches`, so one run never holds the runner long). */
export async function inBatches(run: () => Promise<number>, limit: number, maxBatches = 20): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await run();
    total += n;
    if (n < limit) break;
  }
  return total;
}
