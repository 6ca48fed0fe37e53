import type { Database } from '@medlocker/db';
import type { Transaction } from 'kysely';
import type { AppDeps } from '../../context/deps.ts';
import { claimEvent, type HubMachineRef, saveResult, storedResult } from './locker-repository.ts';
import { findMachine, type MachineRecord } from './repository.ts';

/**
 * The locker's machine no longer exists (a test machine removed while its locker was connected) or was
 * archived: the locker is told, its connection closed with 4001, and it pairs again.
 */
export class MachineGone extends Error {
  constructor(
    readonly machineId: string,
    readonly archived = false,
  ) {
    super(archived ? `Machine ${machineId} is archived` : `Machine ${machineId} no longer exists`);
  }
}

/** A data-changing event of a locker: its own id for it and its sequence number. */
export type LockerEventRef = { eventId: string; seq: number };

/**
 * Applies a data-changing locker event exactly once: its (machine, eventId) receipt and `apply`'s
 * change commit in one transaction, with the result stored on the receipt; a replay finds the receipt
 * and gets the stored result (`duplicate`), changing nothing. MachineGone when the machine is gone.
 */
export async function applyLockerEventOnce<X extends { result: unknown }>(
  deps: AppDeps,
  who: HubMachineRef,
  e: LockerEventRef & { action: string },
  apply: (tx: Transaction<Database>, machine: MachineRecord) => Promise<X>,
): Promise<({ duplicate: true } & Pick<X, 'result'>) | ({ duplicate: false } & X)> {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    if (!(await claimEvent(tx, who, e, now))) {
      return { duplicate: true as const, result: (await storedResult(tx, who, e.eventId)) as X['result'] };
    }
    const machine = await findMachine(tx, who.machineId);
    if (!machine) throw new MachineGone(who.machineId);
    const applied = await apply(tx, machine);
    await saveResult(tx, who, e.eventId, applied.result);
    return { duplicate: false as const, ...applied };
  });
}
