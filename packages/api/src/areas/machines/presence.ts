import { offlineAfterMs } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import { liveOf } from '../../live/live.ts';
import { publishRecorded, recordMachineEvent } from './events.ts';
import { type HubMachineRef, markSilentOffline, touchOnline } from './locker-repository.ts';
import { findMachine } from './repository.ts';

/** A machine whose locker is connected to the hub: `isTest` keeps its pushes off the fleet dashboard. */
export type LockerMachine = HubMachineRef & { isTest: boolean };

/**
 * The machine's locker was heard from now (a boot, a heartbeat). When the machine was offline it is
 * back: MP_0007 is raised and consoles see it online at once.
 */
export async function markOnline(deps: AppDeps, who: LockerMachine, now: number): Promise<void> {
  const before = await touchOnline(deps.db, who, now);
  if (!before || before.wasOnline) return;
  const found = await findMachine(deps.db, who.machineId);
  if (!found) return;
  const recorded = await deps.db
    .transaction()
    .execute((tx) => recordMachineEvent(tx, deps, found, { code: 'MP_0007', created: now }));
  publishRecorded(deps, recorded);
  liveOf(deps).publish({
    businessId: who.businessId,
    machineId: who.machineId,
    fleet: !who.isTest,
    message: { action: 'statusUpdate', params: { machine: found.machine, online: true, lastSeen: now } },
  });
}

/**
 * Marks machines offline that have not been heard from for the missed-heartbeat window, and raises
 * MP_0006 for each; answers their ids. The UPDATE … RETURNING claims each machine once, so several api
 * processes may sweep at the same time without raising the event twice.
 */
export async function sweepOffline(deps: AppDeps, heartbeatIntervalSeconds: number): Promise<string[]> {
  const now = deps.now();
  const cutoff = now - offlineAfterMs(heartbeatIntervalSeconds);
  const gone = await deps.db.transaction().execute(async (tx) => {
    const silent = await markSilentOffline(tx, cutoff);
    const recorded = [];
    for (const found of silent) {
      recorded.push({
        found,
        event: await recordMachineEvent(tx, deps, found, {
          code: 'MP_0006',
          message: 'No heartbeat from the locker: offline',
          data: { lastSeen: found.lastSeen },
          created: now,
        }),
      });
    }
    return recorded;
  });
  const live = liveOf(deps);
  for (const { found, event } of gone) {
    const { machine, test, lastSeen } = found;
    publishRecorded(deps, event);
    live.publish({
      businessId: machine.businessId,
      machineId: machine.id,
      fleet: !test,
      message: { action: 'statusUpdate', params: { machine, online: false, lastSeen } },
    });
  }
  return gone.map((g) => g.found.machine.id);
}
