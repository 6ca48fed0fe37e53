import { AppError } from '@medlocker/core';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { liveOf } from '../../live/live.ts';
import { requireBusiness } from '../business-settings/index.ts';
import { publishRecorded, recordMachineEvent } from './events.ts';
import { auditMachine } from './machine-audit.ts';
import { type Db, lockMachine, type MachineRecord, patchMachine, revokeCredentials } from './repository.ts';

/*
 * The two switches staff throw on a machine: archive (out of the fleet, its locker cut off) and out of
 * order (the locker stops taking bags). Each records an MP_ event saying who, and an audit entry.
 */

/**
 * What a push about a machine back in the fleet (unarchived) adds for the dashboard: the
 * business's name, given only when the machine now counts in the fleet (not a test machine, its
 * business not archived), so a dashboard adds exactly the machines its summary would list.
 */
async function fleetEntry(db: Db, { machine, test }: MachineRecord): Promise<{ businessName?: string }> {
  if (test || machine.archived !== null) return {};
  const business = await requireBusiness(db, machine.businessId);
  return business.archived ? {} : { businessName: business.name };
}

export const toggleArchive: Service<'machines/toggleArchive'> = async (deps, actor, input) => {
  const now = deps.now();
  const { changed, recorded, archiving } = await deps.db.transaction().execute(async (tx) => {
    const current = await lockMachine(tx, input.id);
    if (!current) throw new AppError('NOT_FOUND', `Machine ${input.id} not found`);
    const archiving = current.machine.archived === null;
    const changed = await patchMachine(
      tx,
      input.id,
      archiving
        ? {
            archived: { at: now, userId: actor.userId, userDisplayName: actor.displayName },
            online: false,
            updated: now,
          }
        : { archived: null, updated: now },
    );
    // An archived machine cannot be paired: its credentials end now, and pending codes with them.
    if (archiving) await revokeCredentials(tx, input.id, now);
    const recorded = await recordStaffChange(tx, deps, actor, changed, {
      code: archiving ? 'MP_0004' : 'MP_0005',
      action: archiving ? 'machine.archive' : 'machine.unarchive',
      now,
    });
    return { changed, recorded, archiving };
  });
  const { machine, test } = changed;
  const live = liveOf(deps);
  if (archiving) live.commandLocker({ machineId: machine.id, kind: 'disconnect', reason: 'Machine archived' });
  publishRecorded(deps, recorded);
  live.publish({
    businessId: machine.businessId,
    machineId: machine.id,
    fleet: !test,
    message: {
      action: archiving ? 'archived' : 'unarchived',
      params: {
        entity: 'machine',
        id: machine.id,
        machine,
        ...(archiving ? {} : await fleetEntry(deps.db, changed)),
      },
    },
  });
  return { machine };
};

/**
 * A change staff made to a machine (archive, out of order): its MP_ event, saying who, and its audit
 * entry, in the caller's transaction.
 */
async function recordStaffChange(
  tx: Db,
  deps: AppDeps,
  actor: StaffActor,
  changed: MachineRecord,
  change: { code: 'MP_0002' | 'MP_0003' | 'MP_0004' | 'MP_0005'; action: string; now: number },
) {
  const recorded = await recordMachineEvent(tx, deps, changed, {
    code: change.code,
    data: { userId: actor.userId, userDisplayName: actor.displayName },
    created: change.now,
  });
  await auditMachine(tx, deps, actor, change.action, changed.machine);
  return recorded;
}

export const toggleOutOfOrderStatus: Service<'machines/toggleOutOfOrderStatus'> = async (deps, actor, input) => {
  const now = deps.now();
  const { changed, recorded } = await deps.db.transaction().execute(async (tx) => {
    const current = await lockMachine(tx, input.id);
    if (!current) throw new AppError('NOT_FOUND', `Machine ${input.id} not found`);
    if (current.machine.archived !== null) throw new AppError('CONFLICT', 'An archived machine cannot be edited');
    const goingOut = current.machine.outOfOrderStatus === null;
    const changed = await patchMachine(tx, input.id, {
      outOfOrder: goingOut ? { at: now, userId: actor.userId, userDisplayName: actor.displayName } : null,
      updated: now,
    });
    const recorded = await recordStaffChange(tx, deps, actor, changed, {
      code: goingOut ? 'MP_0003' : 'MP_0002',
      action: goingOut ? 'machine.outOfOrder' : 'machine.inOrder',
      now,
    });
    return { changed, recorded };
  });
  const { machine, test, online, lastSeen } = changed;
  const live = liveOf(deps);
  const notified = live.callLocker({
    machineId: machine.id,
    action: 'SetOutOfOrder',
    payload: { outOfOrder: machine.outOfOrderStatus !== null, at: now, by: actor.displayName },
  });
  publishRecorded(deps, recorded);
  live.publish({
    businessId: machine.businessId,
    machineId: machine.id,
    fleet: !test,
    message: { action: 'statusUpdate', params: { machine, online, lastSeen } },
  });
  // The locker hears it now when connected; otherwise BootNotification's result tells it on reconnect.
  return { machine, lockerNotified: online && (await notified) };
};
