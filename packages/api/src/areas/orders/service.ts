import { AppError, findOrdersMax, isOrderExpired, type Order, ordersPageSize } from '@medlocker/core';
import { auditListPage, auditReads } from '../../audit/audit.ts';
import { type Actor, actorIdentity, type StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { type Cursor, decodeCursor, decodeIdCursor, pageOf } from '../../lists/paging.ts';
import { createOrder } from './create.ts';
import { listOrders } from './list-repository.ts';
import { type StoredOrder, toListedOrder, toOrder } from './mapping-repository.ts';
import { queueOrderMessage } from './messages.ts';
import { moveOrder, notFound, publishOrder } from './moves.ts';
import { openPin } from './pin.ts';
import { findOrder, findOrdersByText, findPatientBusiness, listOrderEvents } from './repository.ts';
import { listSortedPage, orderFilterOf } from './sorted-list.ts';

const field = (path: string, id: string, message: string) =>
  new AppError('VALIDATION', message, [{ path, id, message }]);

/** The stamp columns a staff action fills: at, by (user id) and by (name as it was). */
const stampOf = (actor: Actor, now: number) => {
  const who = actorIdentity(actor);
  return { at: now, by: who.userId ?? '', display: who.display ?? '' };
};

export const create: Service<'orders/create'> = async (deps, actor, input) => {
  return { order: toOrder(await createOrder(deps, actor, input)) };
};

export const get: Service<'orders/get'> = async (deps, actor, input) => {
  const row = await findOrder(deps.db, input.id);
  if (!row) throw notFound(input.id);
  await auditOrderReads(deps, actor, [row], 'get');
  return { order: toOrder(row) };
};

export const cancel: Service<'orders/cancel', Actor> = async (deps, actor, input) => {
  const row = await deps.db.transaction().execute(async (tx) => {
    let announced = false;
    const moved = await moveOrder(
      deps,
      actor,
      input.id,
      'cancel',
      (before, now) => {
        // The patient was told of a loaded order (its ready message); an expired one was told it expired.
        announced = before.status === 'loaded' && !isOrderExpired(toOrder(before), now);
        const s = stampOf(actor, now);
        return {
          set: {
            status: 'cancelled',
            cancelled_at: s.at,
            cancelled_by: s.by,
            cancelled_by_display: s.display,
            cancel_reason: input.reason,
          },
          event: {
            code: 'ORDER_CANCELLED',
            message: `Cancelled by ${s.display}: ${input.reason}`,
            data: { reason: input.reason },
          },
        };
      },
      tx,
    );
    if (announced) await queueOrderMessage(tx, deps, moved, 'orderCancelled');
    return moved;
  });
  publishOrder(deps, row);
  return { order: toOrder(row) };
};

export const markCollected: Service<'orders/markCollected'> = async (deps, actor, input) => {
  const row = await moveOrder(deps, actor, input.id, 'markCollected', (_row, now) => {
    const s = stampOf(actor, now);
    return {
      set: {
        status: 'collected',
        collected: now,
        marked_collected_at: s.at,
        marked_collected_by: s.by,
        marked_collected_by_display: s.display,
      },
      event: { code: 'ORDER_MARKED_COLLECTED', message: `Marked collected by ${s.display}` },
    };
  });
  return { order: toOrder(row) };
};

export const markRemoved: Service<'orders/markRemoved'> = async (deps, actor, input) => {
  const row = await moveOrder(deps, actor, input.id, 'markRemoved', (_row, now) => {
    const s = stampOf(actor, now);
    return {
      set: {
        status: 'removed',
        marked_removed_at: s.at,
        marked_removed_by: s.by,
        marked_removed_by_display: s.display,
      },
      event: { code: 'ORDER_MARKED_REMOVED', message: `Marked removed by ${s.display}` },
    };
  });
  return { order: toOrder(row) };
};

/**
 * Gives staff the PIN of a new or loaded order that has not expired. The reveal is recorded on the order
 * (who, when, why: the collection report's "PIN revealed"), as an order event and in the audit log.
 */
export const setRevealPinReason: Service<'orders/setRevealPinReason'> = async (deps, actor, input) => {
  const row = await moveOrder(deps, actor, input.id, 'revealPin', (_row, now) => {
    const s = stampOf(actor, now);
    return {
      set: { pin_revealed_at: now, pin_revealed_by: s.by || s.display, pin_reveal_reason: input.reason },
      event: {
        code: 'PIN_REVEALED',
        message: `PIN revealed to ${s.display}: ${input.reason}`,
        data: { reason: input.reason },
      },
    };
  });
  if (row.sealedPin === null) throw new AppError('CONFLICT', 'This order has no PIN');
  return { order: toOrder(row), pin: openPin(deps.config.secretsKey, row.id, row.sealedPin) };
};

export const listEvents: Service<'orders/listEvents'> = async (deps, _actor, input) => {
  const order = await findOrder(deps.db, input.orderId);
  if (!order) throw notFound(input.orderId);
  const cursor = decodeCursor(input.nextToken, 2);
  if (cursor && (typeof cursor[0] !== 'number' || typeof cursor[1] !== 'string')) {
    throw field('nextToken', 'INVALID_FORMAT', 'Value is not correctly formatted');
  }
  const events = await listOrderEvents(deps.db, {
    businessId: order.businessId,
    orderId: order.id,
    after: cursor as [number, string] | undefined,
    limit: ordersPageSize + 1,
  });
  const page = pageOf(events, ordersPageSize, (e) => [e.created, e.id]);
  return { events: page.items, nextToken: page.nextToken };
};

/**
 * A page of a business's orders, audited as one `order.list` entry with the orders' ids (a page of a
 * patient's orders names the patient, so "who looked at this patient" finds it).
 */
async function orderPage(
  deps: AppDeps,
  actor: StaffActor,
  rows: StoredOrder[],
  list: { via: string; businessId: string; patientId?: string; filtered?: boolean },
  keyOf: (row: StoredOrder) => Cursor = (r) => [r.id],
) {
  const page = pageOf(rows, ordersPageSize, keyOf);
  const { via, businessId, patientId, filtered } = list;
  await auditListPage(deps.db, deps, actor, {
    action: 'order.list',
    entityType: 'order',
    businessId,
    patientId: patientId ?? null,
    details: { via, ...(filtered !== undefined ? { filtered } : {}) },
    ids: page.items.map((o) => o.id),
  });
  return { orders: page.items.map(toListedOrder), nextToken: page.nextToken };
}

/** Records that the caller saw these orders (a patient's name and what they collect): ids only. */
export const auditOrderReads = (deps: AppDeps, actor: Actor, orders: readonly Order[], via: string) =>
  auditReads(
    deps.db,
    deps,
    actor,
    orders.map((order) => ({
      action: 'order.read',
      entityType: 'order',
      entityId: order.id,
      businessId: order.businessId,
      patientId: order.patientId,
      details: { via },
    })),
  );

export const listOrdersByPatient: Service<'orders/listOrdersByPatient'> = async (deps, actor, input) => {
  const patient = await findPatientBusiness(deps.db, input.patientId);
  if (!patient) throw new AppError('NOT_FOUND', `No patient with id ${input.patientId}`);
  const rows = await listOrders(deps.db, {
    businessId: patient.businessId,
    patientId: patient.id,
    before: decodeIdCursor(input.nextToken),
    limit: ordersPageSize + 1,
  });
  return orderPage(deps, actor, rows, {
    via: 'listOrdersByPatient',
    businessId: patient.businessId,
    patientId: patient.id,
  });
};

export const listOrdersByBusiness: Service<'orders/listOrdersByBusiness'> = async (deps, actor, input) => {
  const filter = orderFilterOf(input, deps.now());
  const list = {
    via: 'listOrdersByBusiness',
    businessId: input.businessId,
    filtered: Boolean(filter.filterText) || input.statusCode !== undefined || Boolean(input.onlyCurrent),
  };
  if (input.sortBy !== undefined) {
    const page = await listSortedPage(deps, filter, { ...input, sortBy: input.sortBy });
    return orderPage(deps, actor, page.rows, list, page.keyOf);
  }
  const rows = await listOrders(deps.db, {
    ...filter,
    before: decodeIdCursor(input.nextToken),
    limit: ordersPageSize + 1,
  });
  return orderPage(deps, actor, rows, list);
};

/** The top bar's search: an order by barcode or reference, in what the caller reaches (scope 'filtered'). */
export const findOrders: Service<'orders/findOrders'> = async (deps, actor, input) => {
  const rows = await findOrdersByText(deps.db, {
    text: input.text.trim(),
    ...(actor.kind === 'pharmacy' ? { businessIds: [...actor.businesses.keys()] } : {}),
    limit: findOrdersMax,
  });
  await auditOrderReads(deps, actor, rows, 'findOrders');
  return { orders: rows.map(toListedOrder) };
};
