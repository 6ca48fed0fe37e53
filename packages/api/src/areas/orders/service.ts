import {
  AppError,
  type Contract,
  findOrdersMax,
  mayMoveOrder,
  type Nation,
  nationHasPrescriptionCharges,
  nationNames,
  type OrderAction,
  type OrderMover,
  type OrderStatus,
  type OutputOf,
  ordersPageSize,
  type ParsedInputOf,
} from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Updateable } from 'kysely';
import { type Actor, actorIdentity, type StaffActor } from '../../actor.ts';
import { audit, auditReads } from '../../audit/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { liveOf } from '../../live/live.ts';
import { decodeCursor, decodeIdCursor, pageOf } from '../../lists/paging.ts';
import { emitOrderEvent, orderEventOfAction } from '../../delivery/webhooks/emit.ts';
import { effectiveFeatureSettings } from '../business-settings/service.ts';
import { loadWaitingBag } from './locker-service.ts';
import { queueOrderMessage } from './messages.ts';
import { newPin, openPin, pinLookup, sealPin } from './pin.ts';
import {
  type Db,
  findBusinessForOrder,
  findMachineForOrder,
  findOrder,
  findOrderRows,
  findPatientForOrder,
  insertOrderEventRows,
  insertOrderRow,
  json,
  listOrderEventRows,
  listOrderRows,
  liveOrderWithBarcode,
  moveOrderRow,
  nextCounter,
  type OrderRow,
  toListedOrder,
  toOrder,
  toOrderEvent,
} from './repository.ts';

type Orders = Contract['orders'];
type In<M extends keyof Orders> = ParsedInputOf<Orders[M]>;
type Out<M extends keyof Orders> = Promise<OutputOf<Orders[M]>>;

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

const field = (path: string, id: string, message: string) =>
  new AppError('VALIDATION', message, [{ path, id, message }]);

const notFound = (id: string) => new AppError('NOT_FOUND', `No order with id ${id}`);

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

/** How many times to draw a new PIN when the one drawn is live at the machine already (1 in 10^8 × orders). */
const PIN_DRAWS = 5;

/**
 * Creates an order (SPEC §5 order create): for a current patient of a business that is not archived,
 * in the machine given if any (of the same business, not archived). Charges need the business's charge
 * settings on. The reference, the machine sequence and the PIN are unique by database rules, so any
 * number of concurrent creates stay correct.
 */
export async function createOrder(
  deps: AppDeps,
  actor: Actor,
  input: In<'create'>,
  via: 'portal' | 'integration-api' | 'qr-code' = 'portal',
): Promise<OrderRow> {
  const business = await findBusinessForOrder(deps.db, input.businessId);
  if (!business) throw new AppError('NOT_FOUND', `No business with id ${input.businessId}`);
  if (business.archived_at !== null) throw new AppError('CONFLICT', 'An archived business cannot have orders added');
  const patient = await findPatientForOrder(deps.db, input.patientId);
  if (!patient || patient.business_id !== input.businessId) {
    throw field('patientId', 'NOT_FOUND', 'No patient with this id in this business');
  }
  if (patient.deleted_at !== null) throw field('patientId', 'DELETED', 'This patient has been deleted');
  const machineId = input.machineId ?? null;
  const machine = machineId === null ? undefined : await findMachineForOrder(deps.db, machineId);
  if (machineId !== null && (!machine || machine.business_id !== input.businessId)) {
    throw field('machineId', 'NOT_FOUND', 'No machine with this id in this business');
  }
  if (machine && machine.archived_at !== null) {
    throw field('machineId', 'ARCHIVED', 'This machine is archived: choose another');
  }
  const { settings } = await effectiveFeatureSettings(deps.db, input.businessId);
  const prescriptionCharge = input.prescriptionCharge ?? 0;
  const retailCharge = input.retailCharge ?? 0;
  const noChargesIn = (nation: Nation) =>
    field(
      'prescriptionCharge',
      'NOT_ENABLED',
      `There are no NHS prescription charges in ${nationNames[nation]}: leave the prescription charge empty`,
    );
  if (prescriptionCharge > 0 && !nationHasPrescriptionCharges(settings.nation)) throw noChargesIn(settings.nation);
  if (prescriptionCharge > 0 && !settings.charges.enabled) {
    throw field('prescriptionCharge', 'NOT_ENABLED', 'Prescription charges are not enabled for this business');
  }
  if (retailCharge > 0 && !settings.retailCharges.enabled) {
    throw field('retailCharge', 'NOT_ENABLED', 'Retail charges are not enabled for this business');
  }
  const duplicate = () =>
    new AppError('CONFLICT', 'Another current order of this business has this barcode', [
      { path: 'barcode', id: 'DUPLICATE_ITEM', message: 'Another current order already has this barcode' },
    ]);
  if (await liveOrderWithBarcode(deps.db, input.businessId, input.barcode)) throw duplicate();

  const who = actorIdentity(actor);
  const now = deps.now();
  const key = deps.config.secretsKey;
  // The numbers are taken first, each in its own one-statement transaction: held until the order's
  // commit, the counter's row lock made every create of a business wait for the one before
  // (bench/orders: 155 creates/s against ~600). A create that fails later leaves a gap, never a repeat.
  const reference = String(await nextCounter(deps.db, `reference:${input.businessId}`)).padStart(6, '0');
  const machineSequence = machine ? await nextCounter(deps.db, `machine:${machine.id}`) : null;
  const row = await deps.db.transaction().execute(async (tx) => {
    const id = Bun.randomUUIDv7();
    for (let draw = 0; draw < PIN_DRAWS; draw++) {
      const pin = newPin();
      const inserted = await insertOrderRow(tx, {
        id,
        reference,
        business_id: input.businessId,
        business_name: business.name,
        patient_id: patient.id,
        patient_name: patient.full_name,
        barcode: input.barcode,
        machine_id: machine?.id ?? null,
        machine_name: machine?.name ?? null,
        machine_sequence: machineSequence,
        machine_payment: machine?.payments_enabled ?? false,
        pin: sealPin(key, id, pin),
        pin_lookup: pinLookup(key, pin),
        payment_status: prescriptionCharge + retailCharge > 0 ? 'unpaid' : 'not_required',
        prescription_charge: prescriptionCharge,
        retail_charge: retailCharge,
        collection_window: input.collectionWindow ?? settings.orderCollection.defaultCollectionWindow,
        created_via: via,
        created_by: who.userId ?? who.display,
        updated_by: who.userId ?? who.display,
        user_id: who.userId,
        machine_details: machine
          ? JSON.stringify({ location: null, machineId: machine.id, machineName: machine.name, pin: null })
          : null,
        patient_details: JSON.stringify({
          displayId: patient.display_id,
          email: patient.email,
          mobileNumber: patient.mobile_number,
        }),
        created: now,
        updated: now,
      });
      if (inserted) {
        if (prescriptionCharge > 0) {
          // Read again now the row is in: its foreign key held the business row, so a move out of England
          // either committed before (seen here, and refused) or waits for this order and counts it (409).
          const current = (await effectiveFeatureSettings(tx, input.businessId)).settings.nation;
          if (!nationHasPrescriptionCharges(current)) throw noChargesIn(current);
        }
        const events = [
          eventRow(deps, actor, inserted, 'ORDER_CREATED', `Order ${reference} created`, {
            machineId: inserted.machine_id,
            collectionWindow: inserted.collection_window,
          }),
        ];
        await insertOrderEventRows(tx, events);
        await audit(tx, deps, actor, {
          action: 'order.create',
          entityType: 'order',
          entityId: id,
          businessId: input.businessId,
          details: { via },
        });
        // A bag with this barcode may already wait in a locker: then the order is loaded at once. Its
        // order.created goes just before its order.loaded, after the load's locks (the bag, the machine's
        // counter): the integration client's row is locked last (docs/DECISIONS.md "Integration events").
        const created = () => emitOrderEvent(tx, deps, 'order.created', inserted);
        const loaded = await loadWaitingBag(tx, deps, actor, inserted, created);
        if (!loaded) await created();
        return loaded ?? inserted;
      }
      // Nothing written: the barcode went live meanwhile (409), or the PIN is live at this machine (draw again).
      if (await liveOrderWithBarcode(tx, input.businessId, input.barcode)) throw duplicate();
    }
    throw new AppError('UNAVAILABLE', 'Could not find a free PIN for this machine: try again');
  });
  publishOrder(deps, row);
  return row;
}

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
    if (integrationEvent) await emitOrderEvent(db, deps, integrationEvent, moved);
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

/** The stamp columns a staff action fills: at, by (user id) and by (name as it was). */
const stampOf = (actor: Actor, now: number) => {
  const who = actorIdentity(actor);
  return { at: now, by: who.userId ?? '', display: who.display ?? '' };
};

export async function create(deps: AppDeps, actor: StaffActor, input: In<'create'>): Out<'create'> {
  return { order: toOrder(await createOrder(deps, actor, input)) };
}

export async function get(deps: AppDeps, actor: StaffActor, input: In<'get'>): Out<'get'> {
  const row = await findOrder(deps.db, input.id);
  if (!row) throw notFound(input.id);
  await auditOrderReads(deps, actor, [row], 'get');
  return { order: toOrder(row) };
}

export async function cancel(deps: AppDeps, actor: Actor, input: In<'cancel'>): Out<'cancel'> {
  const row = await deps.db.transaction().execute(async (tx) => {
    let announced = false;
    const moved = await moveOrder(
      deps,
      actor,
      input.id,
      'cancel',
      (before, now) => {
        // The patient was told of a loaded order (its ready message); an expired one was told it expired.
        announced = before.status === 'loaded' && !(before.expires_at !== null && now >= Number(before.expires_at));
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
}

export async function markCollected(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'markCollected'>,
): Out<'markCollected'> {
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
}

export async function markRemoved(deps: AppDeps, actor: StaffActor, input: In<'markRemoved'>): Out<'markRemoved'> {
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
}

/**
 * Gives staff the PIN of a new or loaded order that has not expired. The reveal is recorded on the order
 * (who, when, why: the collection report's "PIN revealed"), as an order event and in the audit log.
 */
export async function setRevealPinReason(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'setRevealPinReason'>,
): Out<'setRevealPinReason'> {
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
  if (row.pin === null) throw new AppError('CONFLICT', 'This order has no PIN');
  return { order: toOrder(row), pin: openPin(deps.config.secretsKey, row.id, row.pin) };
}

export async function listEvents(deps: AppDeps, _actor: StaffActor, input: In<'listEvents'>): Out<'listEvents'> {
  const order = await findOrder(deps.db, input.orderId);
  if (!order) throw notFound(input.orderId);
  const cursor = decodeCursor(input.nextToken, 2);
  if (cursor && (typeof cursor[0] !== 'number' || typeof cursor[1] !== 'string')) {
    throw field('nextToken', 'INVALID_FORMAT', 'Value is not correctly formatted');
  }
  const rows = await listOrderEventRows(deps.db, {
    businessId: order.business_id,
    orderId: order.id,
    after: cursor as [number, string] | undefined,
    limit: ordersPageSize + 1,
  });
  const page = pageOf(rows, ordersPageSize, (r) => [Number(r.created), r.id]);
  return { events: page.items.map(toOrderEvent), nextToken: page.nextToken };
}

/** A page of orders with their reads audited: who saw which orders (ids only). */
async function orderPage(deps: AppDeps, actor: StaffActor, rows: OrderRow[], via: string) {
  const page = pageOf(rows, ordersPageSize, (r) => [r.id]);
  await auditOrderReads(deps, actor, page.items, via);
  return { orders: page.items.map(toListedOrder), nextToken: page.nextToken };
}

/** Records that the caller saw these orders (a patient's name and what they collect): ids only. */
export const auditOrderReads = (deps: AppDeps, actor: Actor, rows: OrderRow[], via: string) =>
  auditReads(
    deps.db,
    deps,
    actor,
    rows.map((row) => ({
      action: 'order.read',
      entityType: 'order',
      entityId: row.id,
      businessId: row.business_id,
      details: { via },
    })),
  );

export async function listOrdersByPatient(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listOrdersByPatient'>,
): Out<'listOrdersByPatient'> {
  const patient = await findPatientForOrder(deps.db, input.patientId);
  if (!patient) throw new AppError('NOT_FOUND', `No patient with id ${input.patientId}`);
  const rows = await listOrderRows(deps.db, {
    businessId: patient.business_id,
    patientId: patient.id,
    before: decodeIdCursor(input.nextToken),
    limit: ordersPageSize + 1,
  });
  return orderPage(deps, actor, rows, 'listOrdersByPatient');
}

export async function listOrdersByBusiness(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'listOrdersByBusiness'>,
): Out<'listOrdersByBusiness'> {
  const status = input.statusCode;
  const rows = await listOrderRows(deps.db, {
    businessId: input.businessId,
    filterText: input.filterText?.trim() || undefined,
    onlyCurrent: input.onlyCurrent,
    status: status === 'expired' || status === undefined ? undefined : (status as OrderStatus),
    expiredAt: status === 'expired' ? deps.now() : undefined,
    before: decodeIdCursor(input.nextToken),
    limit: ordersPageSize + 1,
  });
  return orderPage(deps, actor, rows, 'listOrdersByBusiness');
}

/** The top bar's search: an order by barcode or reference, in what the caller reaches (scope 'filtered'). */
export async function findOrders(deps: AppDeps, actor: StaffActor, input: In<'findOrders'>): Out<'findOrders'> {
  const rows = await findOrderRows(deps.db, {
    text: input.text.trim(),
    ...(actor.kind === 'pharmacy' ? { businessIds: [...actor.businesses.keys()] } : {}),
    limit: findOrdersMax,
  });
  await auditOrderReads(deps, actor, rows, 'findOrders');
  return { orders: rows.map(toListedOrder) };
}
