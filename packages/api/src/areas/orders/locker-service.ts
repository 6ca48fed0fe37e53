import { AppError, isOrderExpired } from '@medlocker/core';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { alertPinGuessing } from '../machines/index.ts';
import { keypadRule, keypadWait } from './keypad.ts';
import {
  insertPinAttempt,
  liveOrderByPin,
  pinTakenAtMachine,
  recordPinOutcome,
  setBagOrder,
  setPinAttemptOutcome,
  waitingBag,
  wrongPinsBefore,
} from './locker-repository.ts';
import type { Db, StoredOrder } from './mapping-repository.ts';
import { queueOrderMessage, readyMessageKey } from './messages.ts';
import { eventRow, moveOrder, type OrderChange, publishOrder } from './moves.ts';
import { newPin, pinLookup, pinLookups, sealPin } from './pin.ts';
import { findMachineForOrder, findOrder, insertOrderEventRows, nextCounter } from './repository.ts';

/*
 * What a locker's bag events and PIN checks do to orders (docs/LOCKER-PROTOCOL.md §6, docs/ORDERS.md).
 * The machine hub calls the bag functions inside the transaction that claims the locker's event, so a
 * replayed event changes nothing; it publishes the changed orders after that transaction commits.
 */

type LockerActor = Extract<Actor, { kind: 'locker' }>;

const DAY_MS = 86_400_000;

type LoadMachine = NonNullable<Awaited<ReturnType<typeof findMachineForOrder>>>;

/**
 * The load of an order into a slot of this machine: its new state (the machine, a sequence there, a PIN
 * free there, the window started by a first load) and its event; whether this is the first load, and
 * whether the patient's machine or PIN changed.
 */
async function planLoad(
  tx: Db,
  deps: AppDeps,
  machine: LoadMachine,
  place: { location: string; bagLoadedAt?: number },
  order: StoredOrder,
  now: number,
) {
  const firstLoad = order.status === 'new';
  const sameMachine = order.machineId === machine.id;
  const sequence =
    sameMachine && order.machineSequence !== null
      ? order.machineSequence
      : await nextCounter(tx, `machine:${machine.id}`);
  // A PIN stays unique among the machine's live orders: one drawn elsewhere may be taken here.
  let pin: { pin: string; pin_lookup: string } | undefined;
  let lookup = order.pinLookup;
  while (lookup === null || (await pinTakenAtMachine(tx, machine.id, lookup, order.id))) {
    const fresh = newPin();
    const freshLookup = pinLookup(deps.config.secretsKey, fresh);
    pin = { pin: sealPin(deps.config.secretsKey, order.id, fresh), pin_lookup: freshLookup };
    lookup = freshLookup;
  }
  const where = `${machine.name}, slot ${place.location}`;
  const move = {
    set: {
      status: 'loaded' as const,
      machine_id: machine.id,
      machine_name: machine.name,
      machine_sequence: sequence,
      machine_payment: machine.paymentsEnabled,
      machine_details: JSON.stringify({
        location: place.location,
        machineId: machine.id,
        machineName: machine.name,
        pin: null,
      }),
      expires_at: firstLoad ? now + order.collectionWindow * DAY_MS : order.expiresAt,
      ...pin,
    },
    event: firstLoad
      ? {
          code: 'ORDER_LOADED',
          message: `Loaded into ${where}`,
          data: {
            machineId: machine.id,
            location: place.location,
            ...(place.bagLoadedAt === undefined ? {} : { bagLoadedAt: place.bagLoadedAt }),
          },
        }
      : {
          code: 'ORDER_MOVED',
          message: `Moved to ${where}`,
          data: { machineId: machine.id, location: place.location, fromMachineId: order.machineId },
        },
  };
  return { move, firstLoad, patientSeesChange: !sameMachine || pin !== undefined };
}

/**
 * A bag with this order's barcode went into a slot of the locker's machine: the order is loaded there.
 * The first load starts the collection window and queues the order-ready message; a later one (the bag
 * moved slot, or went into another machine) moves the order and keeps its window. An order bound to a
 * machine the pharmacy chose is moved to the machine that really holds the bag; should its PIN be live
 * at that machine already, it gets a new one (before any message carried it).
 */
export async function loadOrder(
  tx: Db,
  deps: AppDeps,
  actor: LockerActor,
  orderId: string,
  /**
   * Where the bag is; `bagLoadedAt` when it went in before its order existed (a waiting bag), which
   * the ORDER_LOADED event keeps: the evidence pack counts the bag as inside from then.
   */
  place: { location: string; bagLoadedAt?: number },
  /** Runs just before the load's integration event (moveOrder's `beforeEvent`). */
  beforeEvent?: () => Promise<unknown>,
): Promise<StoredOrder | null> {
  const machine = await findMachineForOrder(tx, actor.machineId);
  if (!machine) throw new AppError('NOT_FOUND', `No machine with id ${actor.machineId}`);
  // A bag whose order is over (cancelled, collected, removed) loaded again: the locker's report is a
  // fact to record, not a move to refuse (a refusal would keep the event queued on the locker forever).
  const current = await findOrder(tx, orderId);
  if (!current) return null;
  if (current.status !== 'new' && current.status !== 'loaded') {
    await insertOrderEventRows(tx, [
      eventRow(
        deps,
        actor,
        current,
        'LOCKER_BAG_LOADED',
        `The bag was loaded into ${machine.name}, slot ${place.location}, while the order was ${current.status}`,
        {
          machineId: machine.id,
          location: place.location,
        },
      ),
    ]);
    return null;
  }
  let firstLoad = false;
  // What the patient holds: the PIN and the machine. A move that changes either is worth a message.
  let patientSeesChange = false;
  const moved = await moveOrder(
    deps,
    actor,
    orderId,
    'load',
    async (row, now) => {
      const plan = await planLoad(tx, deps, machine, place, row, now);
      firstLoad = plan.firstLoad;
      patientSeesChange = plan.patientSeesChange;
      return plan.move;
    },
    tx,
    beforeEvent,
  );
  if (firstLoad) {
    await queueOrderMessage(tx, deps, moved, readyMessageKey(moved));
  } else if (patientSeesChange && !isOrderExpired(moved, deps.now())) {
    // Moved to another machine, or given a new PIN: the patient gets both again (orderUpdated), once per
    // move. A bag put into another slot of the same machine changes nothing they do: no message.
    await queueOrderMessage(tx, deps, moved, 'orderUpdated', {
      dedupeKey: `order:${moved.id}:orderUpdated:${moved.sequence}`,
    });
  }
  return moved;
}

/**
 * How a locker's report that a bag left it reads: the move of a loaded order, with its timeline event
 * and the patient's message, and the timeline's entry when the order was no longer loaded.
 */
type BagLeft = {
  action: 'collect' | 'remove';
  change: (order: StoredOrder, now: number) => OrderChange;
  message: 'orderCollected' | 'orderRemoved';
  notLoaded: (order: StoredOrder) => { code: string; message: string; data: Record<string, unknown> };
};

/**
 * A bag left the locker: a loaded order moves and its patient is told (per settings). On an order no
 * longer loaded (cancelled meanwhile, or already marked) the state stays and the timeline says what the
 * locker reported: the locker's report is a fact, not a request.
 */
async function bagLeft(
  tx: Db,
  deps: AppDeps,
  actor: LockerActor,
  orderId: string,
  how: BagLeft,
): Promise<StoredOrder | null> {
  const row = await findOrder(tx, orderId);
  if (!row) return null;
  if (row.status !== 'loaded') {
    const { code, message, data } = how.notLoaded(row);
    await insertOrderEventRows(tx, [eventRow(deps, actor, row, code, message, data)]);
    return null;
  }
  const moved = await moveOrder(deps, actor, orderId, how.action, (_row, now) => how.change(row, now), tx);
  await queueOrderMessage(tx, deps, moved, how.message);
  return moved;
}

/** The patient took the bag: a loaded order is collected and its receipt queued. */
export const collectOrder = (
  tx: Db,
  deps: AppDeps,
  actor: LockerActor,
  orderId: string,
  place: { location: string },
): Promise<StoredOrder | null> =>
  bagLeft(tx, deps, actor, orderId, {
    action: 'collect',
    change: (row, now) => ({
      set: { status: 'collected', collected: now },
      event: {
        code: 'ORDER_COLLECTED',
        message: `Collected from ${row.machineName ?? 'the locker'}, slot ${place.location}`,
        data: { location: place.location },
      },
    }),
    message: 'orderCollected',
    notLoaded: (row) => ({
      code: 'LOCKER_BAG_COLLECTED',
      message: `The locker reported the bag collected while the order was ${row.status}`,
      data: { location: place.location },
    }),
  });

/** Staff took the bag out of the locker: a loaded order is removed (and its patient told, per settings). */
export const removeOrder = (
  tx: Db,
  deps: AppDeps,
  actor: LockerActor,
  orderId: string,
  reason: 'staff' | 'expired' | 'unknown',
): Promise<StoredOrder | null> =>
  bagLeft(tx, deps, actor, orderId, {
    action: 'remove',
    change: (row) => ({
      set: { status: 'removed' },
      event: {
        code: 'ORDER_REMOVED',
        message: `Removed from ${row.machineName ?? 'the locker'}${reason === 'expired' ? ' after it expired' : ''}`,
        data: { reason },
      },
    }),
    message: 'orderRemoved',
    notLoaded: (row) => ({
      code: 'LOCKER_BAG_REMOVED',
      message: `The bag was taken out of the locker (order ${row.status})`,
      data: { reason },
    }),
  });

/**
 * An order created while a bag with its barcode already waits in a locker (loaded before the order
 * existed): the bag is matched and the order loaded at once, as if the locker had just reported it.
 */
export async function loadWaitingBag(
  tx: Db,
  deps: AppDeps,
  actor: Actor,
  order: StoredOrder,
  beforeEvent?: () => Promise<unknown>,
): Promise<StoredOrder | null> {
  const { businessId } = order;
  const bag = await waitingBag(tx, businessId, order.barcode);
  if (!bag?.machineId || bag.location === null) return null;
  await setBagOrder(tx, bag.id, order.id, deps.now());
  const locker: LockerActor = {
    kind: 'locker',
    machineId: bag.machineId,
    businessId,
    origin: actor.origin,
  };
  return loadOrder(
    tx,
    deps,
    locker,
    order.id,
    { location: bag.location, bagLoadedAt: Number(bag.created) },
    beforeEvent,
  );
}

/** A wrong PIN (its try stays recorded as wrong); the one that reaches the alert count tells staff. */
async function wrongPin(deps: AppDeps, machineId: string, wrongInWindow: number): Promise<VerifyPinAnswer> {
  if (wrongInWindow === keypadRule.alertAt) {
    await alertPinGuessing(deps, machineId, { count: wrongInWindow, windowMinutes: keypadRule.windowMs / 60_000 });
  }
  return { status: 'Invalid' };
}

export type VerifyPinAnswer =
  | { status: 'Accepted'; bagId: string; barcode: string; location: string }
  | { status: 'Invalid' | 'Expired' | 'PaymentRequired' | 'Held' }
  | { status: 'LockedOut'; retryAfter: number };

/**
 * A PIN typed at a locker. The try is recorded (as wrong) before it is checked, so concurrent tries
 * cannot slip past the keypad rule (keypad.ts: a few free wrong PINs, then a doubling wait before each
 * try, up to two minutes; staff told when wrong PINs pile up); then it gets its real outcome. A wrong
 * PIN names no order, so the rule is the machine's. An accepted PIN names the slot holding the bag.
 */
export async function verifyPin(deps: AppDeps, actor: LockerActor, pin: string): Promise<VerifyPinAnswer> {
  const now = deps.now();
  const attemptId = Bun.randomUUIDv7();
  await insertPinAttempt(deps.db, {
    id: attemptId,
    business_id: actor.businessId,
    machine_id: actor.machineId,
    order_id: null,
    outcome: 'wrong',
    created: now,
  });
  // Both reads after the try is committed (the count must see it), side by side: one round trip's wait.
  const [wrongBefore, found] = await Promise.all([
    wrongPinsBefore(deps.db, actor.machineId, attemptId, now - keypadRule.windowMs),
    liveOrderByPin(deps.db, actor.machineId, pinLookups(deps.config.secretsKey, pin)),
  ]);
  const wait = keypadWait(wrongBefore, now);
  if (wait > 0) {
    // Refused unchecked, and not a wrong PIN: it adds nothing to the next patient's wait.
    await setPinAttemptOutcome(deps.db, attemptId, 'lockedOut', null);
    return { status: 'LockedOut', retryAfter: Math.ceil(wait / 1000) };
  }
  const order = found?.order;
  const bag = order?.status === 'loaded' ? found?.bag : undefined;
  if (!order || !bag || bag.location === null) return wrongPin(deps, actor.machineId, wrongBefore.length + 1);
  const expired = isOrderExpired(order, now);
  // A held PIN (staff paused the collection) opens nothing until released, expired or not.
  const outcome =
    order.pinHold !== undefined
      ? 'held'
      : expired
        ? 'expired'
        : order.paymentStatus === 'unpaid' && order.machinePayment
          ? 'paymentRequired'
          : 'ok';
  const [code, message] = (
    {
      ok: ['PIN_ACCEPTED', 'PIN accepted at the locker'],
      expired: ['PIN_EXPIRED', 'PIN entered after the order expired'],
      paymentRequired: ['PIN_PAYMENT_REQUIRED', 'PIN entered: payment needed before collection'],
      held: ['PIN_REFUSED_HELD', 'PIN entered while it is held: the locker refused it'],
    } as const
  )[outcome];
  await recordPinOutcome(
    deps.db,
    { id: attemptId, outcome, orderId: order.id },
    eventRow(deps, actor, order, code, message),
  );
  publishOrder(deps, order);
  if (outcome === 'held') return { status: 'Held' };
  if (outcome === 'expired') return { status: 'Expired' };
  if (outcome === 'paymentRequired') return { status: 'PaymentRequired' };
  return { status: 'Accepted', bagId: bag.id, barcode: bag.barcode, location: bag.location };
}
