import { AppError, mayMoveOrder, type OrderAction, type OrderMover } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Updateable } from 'kysely';
import { audit } from '../../audit/audit.ts';
import { type Actor, actorIdentity } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { emitOrderEvent, orderEventOfAction } from '../../delivery/webhooks/emit.ts';
import { liveOf } from '../../live/live.ts';
import { type Db, findOrder, insertOrderEventRows, json, moveOrderRow, type OrderRow, toOrder } from './repository.ts';

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
export function invalidTransition(action: OrderAction, row: Pick<OrderRow, 'status' | 'expires_at'>, now: number) {
  const expired = row.status === 'loaded' && row.expires_at !== null && now >= Number(row.expires_at);
  const state = expired ? 'expired' : row.status;
  return new AppError('INVALID_TRANSITION', `This order is ${state}: it cannot ${verbs[action]}`, [
    { path: 'status', id: 'INVALID_TRANSITION', message: state },
  ]);
}

/** An order event row: who did what, from where, with the patient's name and id as they are now. */
export function eventRow(
  deps: AppDeps,
  actor: Actor,
  order: OrderRow,
  code: string,
  message: string,
  data: Record<string, unknown> = {},
) {
  const who = actorIdentity(actor);
  const patientDetails = json<{ displayId?: string }>(order.patient_details) ?? {};
  return {
    id: Bun.randomUUIDv7(),
    business_id: order.business_id,
    order_id: order.id,
    order_reference: order.reference,
    patient_id: order.patient_id,
    code,
    barcode: order.barcode,
    message,
    data: JSON.stringify({ ...data, via: sourceOf(actor), byUserId: who.userId, byName: who.display }),
    full_patient_name: order.patient_name,
    patient_display_id: patientDetails.displayId ?? null,
    created: deps.now(),
  };
}

/** Tells consoles watching the business that an order changed (after the change commits). */
export const publishOrder = (deps: AppDeps, row: OrderRow) =>
  liveOf(deps).publish({
    businessId: row.business_id,
    machineId: row.machine_id,
    fleet: false,
    message: {
      action: 'statusUpdate',
      params: { orderId: row.id, status: row.status, sequence: Number(row.sequence) },
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
  change: (row: OrderRow, now: number, db: Db) => OrderChange | Promise<OrderChange>,
  tx?: Db,
  /** Runs just before the move's integration event (an order created and loaded at once: its order.created). */
  beforeEvent?: () => Promise<unknown>,
): Promise<OrderRow> {
  const run = async (db: Db) => {
    const row = await findOrder(db, id);
    if (!row) throw notFound(id);
    const now = deps.now();
    if (!mayMoveOrder(action, moverOf(actor), { status: row.status, expiresAt: num(row.expires_at) }, now)) {
      throw invalidTransition(action, row, now);
    }
    const who = actorIdentity(actor);
    const { set, event } = await change(row, now, db);
    const moved = await moveOrderRow(
      db,
      { id, status: row.status, sequence: Number(row.sequence) },
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
    await audit(db, deps, actor, {
      action: `order.${action}`,
      entityType: 'order',
      entityId: id,
      businessId: moved.business_id,
      details: { from: row.status, to: moved.status },
    });
    return moved;
  };
  const moved = tx ? await run(tx) : await deps.db.transaction().execute(run);
  if (!tx) publishOrder(deps, moved);
  return moved;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));
