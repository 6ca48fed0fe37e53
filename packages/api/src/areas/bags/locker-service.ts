import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../../context/actor.ts';
import { liveOrderWithBarcode } from '../orders/index.ts';
import { bagInMachine, insertLoadedBag, loadableBag, placeBag } from './locker-repository.ts';

/**
 * What a locker's bag events do to bags and orders (the machine hub calls these inside the transaction
 * that claims the event, so `deps.db` is that transaction). The orders issue adds the order's side.
 */
export type BagDeps = { db: Kysely<Database> | Transaction<Database>; now: () => number };
type LockerActor = Extract<Actor, { kind: 'locker' }>;

/**
 * A bag arrives in a slot: the bag of that barcode in this business (in no machine, or already in this
 * one), or a new one; matched to the live order with the barcode (else it keeps the order it had).
 */
export async function bagLoaded(
  deps: BagDeps,
  actor: LockerActor,
  input: { barcode: string; location: string },
): Promise<{ bagId: string; orderId: string | null }> {
  const now = deps.now();
  const where = { businessId: actor.businessId, machineId: actor.machineId, barcode: input.barcode };
  const order = await liveOrderWithBarcode(deps.db, actor.businessId, input.barcode);
  const existing = await loadableBag(deps.db, where);
  // The live order with the barcode wins over the one the bag last carried: a barcode is unique only
  // among live orders, so a bag reused after its order ended belongs to the new one.
  const orderId = order?.id ?? existing?.orderId ?? null;
  if (existing) {
    await placeBag(deps.db, existing.id, { machineId: actor.machineId, location: input.location, orderId }, now);
    return { bagId: existing.id, orderId };
  }
  const bagId = Bun.randomUUIDv7();
  await insertLoadedBag(deps.db, { id: bagId, ...where, location: input.location, orderId }, now);
  return { bagId, orderId };
}

/** A bag leaves the machine (removed by staff, or collected): it stays on record without a machine. */
export async function bagLeft(
  deps: BagDeps,
  actor: LockerActor,
  input: { barcode: string },
): Promise<{ bagId: string | null; orderId: string | null }> {
  const bag = await bagInMachine(deps.db, {
    businessId: actor.businessId,
    machineId: actor.machineId,
    barcode: input.barcode,
  });
  if (!bag) return { bagId: null, orderId: null };
  await placeBag(deps.db, bag.id, { machineId: null, location: null }, deps.now());
  return { bagId: bag.id, orderId: bag.orderId };
}
