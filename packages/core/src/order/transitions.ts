import type { OrderStatus } from './statuses.ts';

/*
 * How an order moves between SPEC §4's states, and who may move it (docs/ORDERS.md explains each row).
 * The api enforces this table in one place (areas/orders/transitions.ts): a move from a state not listed
 * is refused with 409 INVALID_TRANSITION and the current state, and changes nothing. The console reads
 * the same table to offer only the actions an order's state allows.
 */

/** Who or what acts on an order: staff in the console or cli, a locker, a partner system, a system job. */
export type OrderMover = 'staff' | 'locker' | 'integration' | 'system';

export type OrderTransition = {
  /** The states the action may start from. */
  from: readonly OrderStatus[];
  /** The state it leaves the order in; null when the state does not change (a reveal, an expiry). */
  to: OrderStatus | null;
  by: readonly OrderMover[];
  /** False for actions refused once the order has expired (its PIN no longer opens the locker). */
  whenExpired: boolean;
};

export const orderTransitions = {
  /** The bag went into a locker slot (BagLoaded): the collection window starts. Again: moved slot. */
  load: { from: ['new', 'loaded'], to: 'loaded', by: ['locker'], whenExpired: true },
  /** The patient typed the PIN and took the bag (BagCollected). */
  collect: { from: ['loaded'], to: 'collected', by: ['locker'], whenExpired: true },
  /** Staff say the patient has it (handed over the counter, or a locker that could not report it). */
  markCollected: { from: ['new', 'loaded'], to: 'collected', by: ['staff', 'integration'], whenExpired: true },
  /** Staff took the bag out of the locker (BagRemoved), e.g. after it expired. */
  remove: { from: ['loaded'], to: 'removed', by: ['locker'], whenExpired: true },
  /** Staff record that the bag was taken out of the locker. */
  markRemoved: { from: ['loaded'], to: 'removed', by: ['staff', 'integration'], whenExpired: true },
  /** The order will not be collected; a bag still in the locker stays there until someone removes it. */
  cancel: { from: ['new', 'loaded'], to: 'cancelled', by: ['staff', 'integration'], whenExpired: true },
  /** Staff read the PIN, giving a reason (an event and an audit entry). Not once the PIN has expired. */
  revealPin: { from: ['new', 'loaded'], to: null, by: ['staff'], whenExpired: false },
  /** Staff send the patient the order-ready (or payment-required) message again (patientOrders). */
  resendMessage: { from: ['loaded'], to: null, by: ['staff'], whenExpired: false },
  /** Staff send the patient the expiry reminder now (patientOrders). */
  sendExpiryReminder: { from: ['loaded'], to: null, by: ['staff'], whenExpired: false },
  /** The expiry sweep records, once, that a loaded order's collection window has passed. */
  expire: { from: ['loaded'], to: null, by: ['system'], whenExpired: true },
} as const satisfies Record<string, OrderTransition>;

export type OrderAction = keyof typeof orderTransitions;

/** The states an order may still change from; a PIN works only for these (and only while not expired). */
export const liveOrderStatuses = ['new', 'loaded'] as const satisfies readonly OrderStatus[];

export const isLiveOrderStatus = (status: OrderStatus): boolean =>
  (liveOrderStatuses as readonly OrderStatus[]).includes(status);

/**
 * Expired is derived, not stored (docs/decisions/orders.md): a loaded order whose collection window has passed.
 * Its PIN stops working at `expiresAt`; the order stays `loaded` until the bag is removed or collected.
 */
export const isOrderExpired = (order: { status: OrderStatus; expiresAt: number | null }, now: number): boolean =>
  order.status === 'loaded' && order.expiresAt !== null && now >= order.expiresAt;

/** What the console shows as the order's state: SPEC §4's status, or Expired. */
export type OrderDisplayStatus = OrderStatus | 'expired';

export const orderDisplayStatus = (
  order: { status: OrderStatus; expiresAt: number | null },
  now: number,
): OrderDisplayStatus => (isOrderExpired(order, now) ? 'expired' : order.status);

/** Whether `action` may be taken by `by` on an order in this state at `now`. */
export function mayMoveOrder(
  action: OrderAction,
  by: OrderMover,
  order: { status: OrderStatus; expiresAt: number | null },
  now: number,
): boolean {
  const t: OrderTransition = orderTransitions[action];
  if (!t.by.includes(by) || !t.from.includes(order.status)) return false;
  return t.whenExpired || !isOrderExpired(order, now);
}

/** The staff actions the console offers on an order in this state. */
export const staffOrderActions = (order: { status: OrderStatus; expiresAt: number | null }, now: number) =>
  (['revealPin', 'resendMessage', 'sendExpiryReminder', 'markCollected', 'markRemoved', 'cancel'] as const).filter(
    (a) => mayMoveOrder(a, 'staff', order, now),
  );

/** The longest collection window staff may set, in days. */
export const maxCollectionWindowDays = 90;
