import { AppError, mayMoveOrder, type PatientMessageKey, patientMessageNames } from '@medlocker/core';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out } from '../../context/method.ts';
import {
  auditOrder,
  eventRow,
  expiryReminderLeadMs,
  insertOrderEventRows,
  invalidTransition,
  latestRequestedMessageSince,
  lockOrder,
  publishOrder,
  queueOrderMessage,
  readyMessageKey,
  type StoredOrder,
  setExpiryReminded,
  toOrder,
} from '../orders/index.ts';

/** A second press within this long of the last one for the same message sends nothing more (a double click). */
export const repeatGuardMs = 10_000;

/**
 * Queues a patient message staff asked for, on a loaded order that has not expired (else 409 naming
 * its state). The order's row is locked first, so two presses run one after the other and the second
 * sees the first's message: within `repeatGuardMs` it sends nothing and says so (messages the order
 * sent by itself, such as the ready message at load, do not count: staff asked for another). Each press otherwise
 * queues a new message (its own dedupe key). The timeline records the request with who asked, or why
 * nothing was sent (suppressed, no contact); the audit log records the request.
 */
async function requestMessage(
  deps: AppDeps,
  actor: StaffActor,
  orderId: string,
  action: 'resendMessage' | 'sendExpiryReminder',
  keyOf: (row: StoredOrder) => PatientMessageKey,
  guardKeys: PatientMessageKey[],
  after?: (tx: Parameters<typeof lockOrder>[0], row: StoredOrder, now: number) => Promise<void>,
) {
  const answer = await deps.db.transaction().execute(async (tx) => {
    const row = await lockOrder(tx, orderId);
    if (!row) throw new AppError('NOT_FOUND', `No order with id ${orderId}`);
    const now = deps.now();
    const order = toOrder(row);
    const state = { status: order.status, expiresAt: order.expiresAt };
    if (!mayMoveOrder(action, 'staff', state, now)) throw invalidTransition(action, row, now);
    // A held PIN: the patient was told collection is paused; the release message tells them again.
    if (order.pinHold !== undefined) {
      throw new AppError('INVALID_TRANSITION', 'This order’s PIN is held: release it before messaging the patient', [
        { path: 'status', id: 'INVALID_TRANSITION', message: 'held' },
      ]);
    }
    const key = keyOf(row);
    const name = patientMessageNames[key];
    const recent = await latestRequestedMessageSince(tx, row.id, guardKeys, now - repeatGuardMs);
    if (recent !== null) {
      const seconds = Math.max(1, Math.round((now - recent) / 1000));
      return {
        row,
        sent: false,
        message: `No message sent: the ${name.toLowerCase()} message was queued ${seconds} s ago.`,
      };
    }
    const outcome = await queueOrderMessage(tx, deps, row, key, {
      actor,
      requested: true,
      dedupeKey: `order:${row.id}:${key}:request:${Bun.randomUUIDv7()}`,
    });
    if (outcome.sent) {
      await insertOrderEventRows(tx, [
        eventRow(deps, actor, row, 'MESSAGE_REQUESTED', `${name} message requested by ${actor.displayName}`, {
          templateKey: key,
        }),
      ]);
      await after?.(tx, row, now);
    }
    await auditOrder(tx, deps, actor, `order.${action}`, order, { templateKey: key, sent: outcome.sent });
    return { row, sent: outcome.sent, message: `${outcome.text}.` };
  });
  publishOrder(deps, answer.row);
  return { order: toOrder(answer.row), sent: answer.sent, message: answer.message };
}

/** Staff: the order-ready message again (payment required instead while charges are unpaid at a paying machine). */
export const resendOrderReadyMessage = (
  deps: AppDeps,
  actor: StaffActor,
  input: In<'patientOrders/resendOrderReadyMessage'>,
): Out<'patientOrders/resendOrderReadyMessage'> =>
  requestMessage(deps, actor, input.orderId, 'resendMessage', readyMessageKey, ['orderReady', 'paymentRequired']);

/**
 * Staff: the expiry reminder now, whatever the business's `sendOrderExpiringSms` (that switch is for
 * the automatic reminder). Sent within the automatic reminder's lead, it counts as that reminder.
 */
export const sendOrderExpiryMessage = (
  deps: AppDeps,
  actor: StaffActor,
  input: In<'patientOrders/sendOrderExpiryMessage'>,
): Out<'patientOrders/sendOrderExpiryMessage'> =>
  requestMessage(
    deps,
    actor,
    input.orderId,
    'sendExpiryReminder',
    () => 'orderExpiring',
    ['orderExpiring'],
    async (tx, row, now) => {
      const expiresAt = Number(toOrder(row).expiresAt);
      if (now >= expiresAt - expiryReminderLeadMs) await setExpiryReminded(tx, row.id, expiresAt);
    },
  );
