import { offlineAfterMs } from '@medlocker/core';
import { markSilentOffline, publishRecorded, recordMachineEvent, toMachine } from '../../areas/machines/index.ts';
import { inBusinessOrder } from '../../delivery/webhooks/emit.ts';
import type { AppDeps } from '../../deps.ts';
import { liveOf } from '../../live/live.ts';

/**
 * Marks machines offline that have not been heard from for the missed-heartbeat window, and raises
 * MP_0006 for each. The UPDATE … RETURNING claims each machine once, so several api processes may
 * sweep at the same time without raising the event twice.
 */
export async function sweepOffline(deps: AppDeps, heartbeatIntervalSeconds: number): Promise<string[]> {
  const now = deps.now();
  const cutoff = now - offlineAfterMs(heartbeatIntervalSeconds);
  const gone = await deps.db.transaction().execute(async (tx) => {
    const rows = await markSilentOffline(tx, cutoff);
    const recorded = [];
    for (const row of inBusinessOrder(rows)) {
      recorded.push({
        row,
        event: await recordMachineEvent(tx, deps, row, {
          code: 'MP_0006',
          message: 'No heartbeat from the locker: offline',
          data: { lastSeen: row.last_seen },
          created: now,
        }),
      });
    }
    return recorded;
  });
  const live = liveOf(deps);
  for (const { row, event } of gone) {
    publishRecorded(deps, event);
    live.publish({
      businessId: row.business_id,
      machineId: row.id,
      fleet: !row.is_test,
      message: { action: 'statusUpdate', params: { machine: toMachine(row), online: false, lastSeen: row.last_seen } },
    });
  }
  return gone.map((g) => g.row.id);
}
