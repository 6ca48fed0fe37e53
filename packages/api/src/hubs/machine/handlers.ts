import {
  errorFrame,
  isCriticalAlarmCode,
  type LockerAction,
  type LockerRequest,
  type LockerResponse,
  MAX_READING_AHEAD_MS,
  machineAlerts,
} from '@medlocker/core';
import { bagLeft, bagLoaded } from '../../areas/bags/index.ts';
import { insertStatus, noteReportedSlots, recordMachineEvent, resolveByLocker } from '../../areas/machines/index.ts';
import { collectOrder, loadOrder, removeOrder, verifyPin } from '../../areas/orders/index.ts';
import { orderForScannedBag } from '../../areas/qr-codes/index.ts';
import { liveOf } from '../../live/live.ts';
import { CallError } from './call-error.ts';
import type { LockerSession } from './session.ts';

/** What BagLoaded answers about the QR code it carried. */
const qrOutcome = (scanned: { created: unknown; refusal: string | null }) =>
  scanned.refusal !== null
    ? { status: 'Refused' as const, reason: scanned.refusal }
    : { status: scanned.created ? ('Created' as const) : ('Matched' as const) };

/** One call being handled: its frame id and the hub's clock when it started. */
export type CallInfo = { id: string; now: number };

/** Handles one locker action: the payload as its schema checked it, the result as the protocol defines it. */
export type Handler<A extends LockerAction> = (
  session: LockerSession,
  payload: LockerRequest<A>,
  call: CallInfo,
) => Promise<LockerResponse<A>>;

export type Handlers = { [A in LockerAction]: Handler<A> };

/**
 * One handler per locker action (docs/LOCKER-PROTOCOL.md §6). `satisfies Handlers`: an action added to
 * core's `lockerActions` without a handler here does not compile.
 */
export const lockerHandlers = {
  BootNotification: (s, p, { now }) => s.boot(p, now),

  Heartbeat: async (s, _p, { now }) => {
    await s.online(now);
    return { currentTime: now };
  },

  StatusNotification: async (s, p, { now }) => {
    const created = p.created ?? now;
    const statusId = await insertStatus(s.deps.db, s.who, p.observations, created);
    // A locker with another number of slots than its machine is flagged (MP_0009, the machine page).
    await noteReportedSlots(s.deps, s.who.machineId, p.observations, created);
    liveOf(s.deps).publish({
      businessId: s.who.businessId,
      machineId: s.who.machineId,
      fleet: !s.who.isTest,
      message: {
        action: 'statusUpdate',
        params: { machineId: s.who.machineId, statusId, observations: p.observations, created },
      },
    });
    return {};
  },

  TemperatureReadings: async (s, p, { id, now }) => {
    // A reading ahead of the hub's clock (beyond the drift a locker may have) would never count in the
    // 3-hour average nor show on the chart: refused with the hub's time, never dropped in silence.
    const ahead = p.readings.findIndex((r) => r.created > now + MAX_READING_AHEAD_MS);
    if (ahead >= 0) {
      throw new CallError(
        errorFrame(
          id,
          'TypeConstraintViolation',
          `readings[${ahead}].created is ahead of the hub's clock: set the clock from currentTime and send readings with their true time`,
          {
            problems: [`readings[${ahead}].created must be at most ${MAX_READING_AHEAD_MS / 60_000} minutes ahead`],
            currentTime: now,
          },
        ),
      );
    }
    s.noteSeq(p);
    const { stored } = await s.batcher.add(s.who, p.eventId, p.seq, p.readings);
    return { stored };
  },

  MachineEvent: (s, e) =>
    s.once(e, 'MachineEvent', async (tx, machine) => {
      // The locker says a critical alarm is over: its unresolved alarm of the code is resolved.
      if (e.data?.cleared === true && isCriticalAlarmCode(e.code)) {
        const [recorded] = await resolveByLocker(
          tx,
          s.deps,
          [machine.machine.id],
          e.code,
          'the locker reported it cleared',
        );
        const noted =
          recorded ??
          (await recordMachineEvent(tx, s.deps, machine, {
            code: 'MP_0015',
            message: `${e.code} cleared by the locker: no unresolved alarm`,
            data: { code: e.code, how: 'locker' },
            lockerEventId: e.eventId,
            seq: e.seq,
            created: e.created,
          }));
        return { result: { id: noted.event.id }, recorded: noted };
      }
      const known = (machineAlerts as Record<string, { level: string }>)[e.code];
      const recorded = await recordMachineEvent(tx, s.deps, machine, {
        code: e.code,
        ...(e.level ? { level: e.level } : known ? {} : { level: 'info' }),
        ...(e.message ? { message: e.message } : {}),
        ...(e.data ? { data: e.data } : {}),
        bagId: e.bagId ?? null,
        barcode: e.barcode ?? null,
        lockerEventId: e.eventId,
        seq: e.seq,
        created: e.created,
      });
      return { result: { id: recorded.event.id }, recorded };
    }),

  BagLoaded: (s, e) =>
    s.once(e, 'BagLoaded', async (tx) => {
      // A bag with a signed QR code brings its order: made first, in this event's transaction, so the
      // bag is bound to it and loads it as any bag whose order exists (docs/LOCKER-PROTOCOL.md, BagLoaded).
      const scanned =
        e.qrCode === undefined
          ? null
          : await orderForScannedBag(tx, s.deps, s.actor, { barcode: e.barcode, qrCode: e.qrCode });
      if (scanned?.refusal) {
        s.deps.logger.warn('locker QR code refused', { machineId: s.who.machineId, reason: scanned.refusal });
      }
      const bag = await bagLoaded({ db: tx, now: s.deps.now }, s.actor, e);
      const order = bag.orderId ? await loadOrder(tx, s.deps, s.actor, bag.orderId, e) : null;
      const result = scanned ? { ...bag, qrCode: qrOutcome(scanned) } : bag;
      return { result, contents: 'loaded', orders: order ? [order] : [] };
    }),

  BagRemoved: (s, e) =>
    s.once(e, 'BagRemoved', async (tx) => {
      const { bagId, orderId } = await bagLeft({ db: tx, now: s.deps.now }, s.actor, e);
      const order = orderId ? await removeOrder(tx, s.deps, s.actor, orderId, e.reason ?? 'unknown') : null;
      return { result: { bagId }, contents: 'removed', orders: order ? [order] : [] };
    }),

  BagCollected: (s, e) =>
    s.once(e, 'BagCollected', async (tx) => {
      const result = await bagLeft({ db: tx, now: s.deps.now }, s.actor, e);
      const order = result.orderId ? await collectOrder(tx, s.deps, s.actor, result.orderId, e) : null;
      return { result, contents: 'collected', orders: order ? [order] : [] };
    }),

  VerifyPin: (s, p) => verifyPin(s.deps, s.actor, p.pin),
} satisfies Handlers;

/** Runs the handler of a checked call. */
export const handle = <A extends LockerAction>(
  session: LockerSession,
  action: A,
  payload: LockerRequest<A>,
  call: CallInfo,
): Promise<LockerResponse<A>> => (lockerHandlers as Handlers)[action](session, payload, call);
