import { AppError, evidenceFileReadingsMax, isOrderExpired, isoTime, type Order } from '@medlocker/core';
import { actorIdentity } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { emitOrderEvent } from '../../delivery/webhooks/emit.ts';
import {
  auditOrder,
  eventRow,
  insertOrderEventRows,
  publishOrder,
  queueOrderMessage,
  type StoredOrder,
  toOrder,
} from '../orders/index.ts';
import { packFileName, packZip } from './file.ts';
import { buildPack } from './pack.ts';
import { listReadings, lockOrders, setPinHold } from './repository.ts';

/*
 * The evidence pack and PIN holds (docs/decisions/reports.md "Evidence pack"). A hold pauses an
 * order's collection: the locker answers VerifyPin `Held` (orders/locker-service.ts) until a release.
 * Neither is a state of SPEC §4 (the order stays loaded), so they are not moves of core's transition
 * table: each is a timeline event, an audit entry, an integration event (order.pin_held,
 * order.pin_released) and a message to the patient, in one transaction for the whole batch.
 */

export const getEvidencePack: Service<'evidence/getEvidencePack'> = async (deps, actor, input) => {
  return { pack: (await buildPack(deps, actor, input, 'evidencePack')).pack };
};

export const downloadEvidencePack: Service<'evidence/downloadEvidencePack'> = async (deps, actor, input) => {
  const { pack } = await buildPack(deps, actor, input, 'evidencePack.download');
  const readings = await listReadings(
    deps.db,
    { businessId: pack.machine.businessId, machineId: pack.machine.id, from: pack.from, to: pack.to },
    { limit: evidenceFileReadingsMax },
  );
  const zip = packZip(
    pack,
    readings.map((r) => ({ created: Number(r.created), value: Number(r.value) })),
    deps.config.productName,
  );
  return { fileName: packFileName(pack), contentType: 'application/zip', data: Buffer.from(zip).toString('base64') };
};

const conflict = (row: StoredOrder, why: string) =>
  new AppError('CONFLICT', `Order ${row.reference} ${why}`, [
    { path: 'orderIds', id: 'INVALID_TRANSITION', message: why },
  ]);

/** Locks the named orders (all must exist: else 404, as for any order the caller does not reach). */
async function lockAll(tx: Parameters<typeof lockOrders>[0], ids: string[]): Promise<StoredOrder[]> {
  const rows = await lockOrders(tx, ids);
  const missing = ids.find((id) => !rows.some((r) => r.id === id));
  if (missing) throw new AppError('NOT_FOUND', `No order with id ${missing}`);
  return rows;
}

/**
 * Changes the named orders (locked, in one transaction, at one `now`): `change` answers them changed.
 * They are published once committed and answered in the order named.
 */
async function changeOrders(
  deps: AppDeps,
  orderIds: string[],
  change: (tx: Parameters<typeof lockOrders>[0], rows: StoredOrder[], now: number) => Promise<StoredOrder[]>,
): Promise<{ orders: Order[] }> {
  const ids = [...new Set(orderIds)];
  const changed = await deps.db.transaction().execute(async (tx) => change(tx, await lockAll(tx, ids), deps.now()));
  for (const row of changed) publishOrder(deps, row);
  return { orders: ordered(changed, ids).map(toOrder) };
}

export const holdPins: Service<'evidence/holdPins'> = (deps, actor, input) => {
  const who = actorIdentity(actor);
  return changeOrders(deps, input.orderIds, async (tx, rows, now) => {
    for (const row of rows) {
      const order = toOrder(row);
      if (order.pinHold !== undefined) throw conflict(row, 'already has its PIN held');
      if (order.status !== 'loaded' || isOrderExpired(order, now)) {
        const state = order.status === 'loaded' ? 'expired' : order.status;
        throw conflict(row, `is ${state}: only a loaded order's PIN can be held`);
      }
    }
    const out: StoredOrder[] = [];
    for (const row of rows) {
      const hold = { at: now, by: who.userId ?? '', display: who.display ?? '', reason: input.reason };
      const moved = await setPinHold(tx, row.id, hold, now, who.userId ?? who.display ?? '');
      await insertOrderEventRows(tx, [
        eventRow(deps, actor, moved, 'PIN_HELD', `PIN held by ${hold.display}: ${input.reason}`, {
          reason: input.reason,
        }),
      ]);
      await auditOrder(tx, deps, actor, 'order.holdPin', moved, { reason: input.reason });
      await emitOrderEvent(tx, deps, 'order.pin_held', toOrder(moved), undefined, {
        heldAt: isoTime(now),
        reason: input.reason,
      });
      // Once per hold: a second hold after a release tells the patient again.
      await queueOrderMessage(tx, deps, moved, 'orderPinHeld', {
        actor,
        dedupeKey: `order:${row.id}:orderPinHeld:${moved.sequence}`,
      });
      out.push(moved);
    }
    return out;
  });
};

export const releasePins: Service<'evidence/releasePins'> = (deps, actor, input) => {
  const who = actorIdentity(actor);
  return changeOrders(deps, input.orderIds, async (tx, rows, now) => {
    const holds = rows.map((row) => {
      const { pinHold } = toOrder(row);
      if (pinHold === undefined) throw conflict(row, 'does not have its PIN held');
      return { row, pinHold };
    });
    const out: StoredOrder[] = [];
    for (const { row, pinHold } of holds) {
      const moved = await setPinHold(tx, row.id, null, now, who.userId ?? who.display ?? '');
      const order = toOrder(moved);
      await insertOrderEventRows(tx, [
        eventRow(deps, actor, moved, 'PIN_RELEASED', `PIN released by ${who.display ?? ''}: ${input.reason}`, {
          reason: input.reason,
          heldAt: pinHold.heldAt,
          heldBy: pinHold.heldByDisplayName,
        }),
      ]);
      await auditOrder(tx, deps, actor, 'order.releasePin', order, { reason: input.reason });
      await emitOrderEvent(tx, deps, 'order.pin_released', order, undefined, {
        heldAt: isoTime(pinHold.heldAt),
        reason: pinHold.reason,
        releasedAt: isoTime(now),
        releaseReason: input.reason,
      });
      // Only a patient who can still collect is told so (a cancelled or expired order's PIN stays dead).
      if (order.status === 'loaded' && !isOrderExpired(order, now)) {
        await queueOrderMessage(tx, deps, moved, 'orderPinReleased', {
          actor,
          dedupeKey: `order:${row.id}:orderPinReleased:${moved.sequence}`,
        });
      }
      out.push(moved);
    }
    return out;
  });
};

/** Rows in the order the caller named them. */
const ordered = (rows: StoredOrder[], ids: string[]) =>
  ids.map((id) => rows.find((r) => r.id === id)).filter((r): r is StoredOrder => r !== undefined);
