import { AppError, mayMoveOrder, type Order, type OrderAction, type OrderMover } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Updateable } from 'kysely';
import { entityAudit } from '../../audit/audit.ts';
import { type Actor, actorIdentity } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { emitOrderEvent, orderEventOfAction } from '../../delivery/webhooks/emit.ts';
import { liveOf } from '../../live/live.ts';
import { type Db, type StoredOrder, toOrder } from './mapping-repository.ts';
import { findOrder, insertOrderEventRows, moveOrderRow } from './repository.ts';

/*
 * How an order moves from one state to the next: who may move it, the row and its event in one
 * transaction, the integration event, the audit entry, and the live push after the commit. Every flow
 * that changes an order's state (staff, lockers, patients, jobs) goes through moveOrder.
 */

export const notFound = (id: string) => new AppError('NOT_FOUND', `No order with id ${id}`);

/** Who moves an order, in core's transition table's words. */
export function moverOf(actor: Actor): OrderMover {
  switch (actor.kind) {
    case 'support':
    case 'pharmacy':
      return 'staff';
    case 'locker':
    case 'integration':
    case 'system':
      return actor.kind;
    default:
      throw new AppError('FORBIDDEN', 'You do not have access to this area');
  }
}

/** Where a change came from, as an order event records it (`patient`: the patient page). */
const sourceOf = (actor: Actor): string =>
  actor.kind === 'locker'
    ? 'locker'
    : actor.kind === 'integration'
      ? 'integration'
      : actor.kind === 'system'
        ? 'system'
        : actor.kind === 'patient'
          ? 'patient'
          : 'portal';

/** What an action does, after "it cannot ": "This order is collected: it cannot be cancelled". */
const verbs: Record<OrderAction, string> = {
  load: 'be loaded',
  collect: 'be collected',
  markCollected: 'be marked collected',
  remove: 'be removed',
  markRemoved: 'be marked removed',
  cancel: 'be cancelled',
  revealPin: 'have its PIN revealed',
  resendMessage: 'have its message sent again',
  sendExpiryReminder: 'be sent an expiry reminder',
  expire: 'expire',
};

/** 409 INVALID_TRANSITION naming the order's current state (and Expired where that is why). */
export function invalidTransition(action: OrderAction, order: Pick<Order, 'status' | 'expiresAt'>, now: number) {
  const expired = order.status === 'loaded' && order.expiresAt !== null && now >= order.expiresAt;
  const state = expired ? 'expired' : order.status;
  return new AppError('INVALID_TRANSITION', `This order is ${state}: it cannot ${verbs[action]}`, [
    { path: 'status', id: 'INVALID_TRANSITION', message: state },
  ]);
}

/** The audit entry of a change to one order (`order.create`, `order.payment`…), in the order's business. */
export const auditOrder = entityAudit('order');

/** An order event row: who did what, from where, with the patient's name and id as they are now. */
export function eventRow(
  deps: AppDeps,
  actor: Actor,
  order: Order,
  code: string,
  message: string,
  data: Record<string, unknown> = {},
) {
  const who = actorIdentity(actor);
  const patientDetails = (order.patientDetails ?? {}) as { displayId?: string };
  return {
    id: Bun.randomUUIDv7(),
    business_id: order.businessId,
    order_id: order.id,
    order_reference: order.reference,
    patient_id: order.patientId,
    code,
    barcode: order.barcode,
    message,
    data: JSON.stringify({ ...data, via: sourceOf(actor), byUserId: who.userId, byName: who.display }),
    full_patient_name: order.patientName,
    patient_display_id: patientDetails.displayId ?? null,
    created: deps.now(),
  };
}

/** Tells consoles watching the business that an order changed (after the change commits). */
export const publishOrder = (deps: AppDeps, order: Order) =>
  liveOf(deps).publish({
    businessId: order.businessId,
    machineId: order.machineId,
    fleet: false,
    message: {
      action: 'statusUpdate',
      params: { orderId: order.id, status: order.status, sequence: order.sequence },
    },
  });

/** What a move writes: the columns it sets and the event it records. */
export type OrderChange = {
  set: Updateable<Database['orders']>;
  event: { code: string; message: string; data?: Record<string, unknown> };
};

/**
 * Moves an order by `action` if its state allows it for this actor (core's orderTransitions), in one
 * transaction with its event, its integration event (webhooks/emit.ts) and audit entry; a concurrent
 * change to the same order makes the later
 * one a 409, never a double move.
 */
export async function moveOrder(
  deps: AppDeps,
  actor: Actor,
  id: string,
  action: OrderAction,
  change: (order: StoredOrder, now: number, db: Db) => OrderChange | Promise<OrderChange>,
  tx?: Db,
  /** Runs just before the move's integration event (an order created and loaded at once: its order.created). */
  beforeEvent?: () => Promise<unknown>,
): Promise<StoredOrder> {
  const run = async (db: Db) => {
    const row = await findOrder(db, id);
    if (!row) throw notFound(id);
    const now = deps.now();
    if (!mayMoveOrder(action, moverOf(actor), { status: row.status, expiresAt: row.expiresAt }, now)) {
      throw invalidTransition(action, row, now);
    }
    const who = actorIdentity(actor);
    const { set, event } = await change(row, now, db);
    const moved = await moveOrderRow(
      db,
      { id, status: row.status, sequence: row.sequence },
      { ...set, updated: now, updated_by: who.userId ?? who.display },
    );
    if (!moved) {
      const current = await findOrder(db, id);
      throw invalidTransition(action, current ?? row, now);
    }
    await insertOrderEventRows(db, [eventRow(deps, actor, moved, event.code, event.message, event.data)]);
    await beforeEvent?.();
    const integrationEvent = orderEventOfAction[action];
    if (integrationEvent) await emitOrderEvent(db, deps, integrationEvent, toOrder(moved));
    await auditOrder(db, deps, actor, `order.${action}`, moved, { from: row.status, to: moved.status });
    return moved;
  };
  const moved = tx ? await run(tx) : await deps.db.transaction().execute(run);
  if (!tx) publishOrder(deps, moved);
  return moved;
}
