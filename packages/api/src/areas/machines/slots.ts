import type { AppDeps } from '../../context/deps.ts';
import { publishRecorded, type RecordedEvent, recordMachineEvent } from './events.ts';
import { noteReportedSlotsRow } from './repository.ts';

/** The number of slots in a locker's observations (`slotsTotal`, a whole number above 0), if any. */
export function slotsTotalOf(observations: Record<string, unknown>): number | null {
  const slots = observations.slotsTotal;
  return typeof slots === 'number' && Number.isInteger(slots) && slots > 0 && slots <= 1000 ? slots : null;
}

/**
 * What a locker said of its slots (its StatusNotification's `slotsTotal`, sent after every boot): kept
 * on the machine, and when it differs from the slots the machine was set up with, a SlotCountMismatch
 * event (MP_0009, warn) once per number reported. The machine page compares the two whenever shown.
 */
export async function noteReportedSlots(
  deps: AppDeps,
  machineId: string,
  observations: Record<string, unknown>,
  created: number,
): Promise<void> {
  const slots = slotsTotalOf(observations);
  if (slots === null) return;
  const recorded = await deps.db.transaction().execute(async (tx): Promise<RecordedEvent | undefined> => {
    const changed = await noteReportedSlotsRow(tx, machineId, slots);
    if (!changed || changed.machine.numberOfSlots === slots) return undefined;
    const set = changed.machine.numberOfSlots;
    return recordMachineEvent(tx, deps, changed, {
      code: 'MP_0009',
      message: `The locker reports ${slots} slots; the machine is set up with ${set}`,
      data: { reportedSlots: slots, numberOfSlots: set },
      created,
    });
  });
  if (recorded) publishRecorded(deps, recorded);
}
