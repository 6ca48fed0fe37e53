import { bagsToRemoveListMax, machinesPageSize } from '@medlocker/core';
import type { Service } from '../../context/method.ts';
import { pageBeforeId } from '../../lists/paging.ts';
import { auditMachine, requireMachine } from '../machines/index.ts';
import { liveOrderWithBarcode, loadOrder, publishOrder, setBagOrder } from '../orders/index.ts';
import { countBagsToRemove, listBagRows, listBagsToRemoveRows, toBag, unmatchedBagsOfMachine } from './repository.ts';

export const listBags: Service<'bags/listBags'> = async (deps, _actor, input) => {
  const page = await pageBeforeId(input.nextToken, machinesPageSize, (at) =>
    listBagRows(deps.db, {
      businessId: input.businessId,
      ...(input.machineId ? { machineId: input.machineId } : {}),
      ...(input.filter ? { filter: input.filter } : {}),
      ...at,
    }),
  );
  return { bags: page.items.map(toBag), nextToken: page.nextToken };
};

/** Bags to take out of the lockers: cancelled or expired orders' (docs/decisions/machines.md). */
export const listBagsToRemove: Service<'bags/listBagsToRemove'> = async (deps, _actor, input) => {
  const now = deps.now();
  const scope = { businessId: input.businessId, ...(input.machineId ? { machineId: input.machineId } : {}), now };
  const rows = await listBagsToRemoveRows(deps.db, { ...scope, limit: bagsToRemoveListMax });
  const { total } =
    rows.length < bagsToRemoveListMax ? { total: rows.length } : await countBagsToRemove(deps.db, scope);
  return { bags: rows, total };
};

export const reprocessBags: Service<'bags/reprocessBags'> = async (deps, actor, input) => {
  const { machine } = await requireMachine(deps.db, input.machineId);
  // Each match loads its order as if the locker had just reported the bag (docs/ORDERS.md).
  const locker = {
    kind: 'locker',
    machineId: machine.id,
    businessId: machine.businessId,
    origin: actor.origin,
  } as const;
  const { result, loaded } = await deps.db.transaction().execute(async (tx) => {
    const bags = await unmatchedBagsOfMachine(tx, machine.businessId, machine.id);
    const loaded = [];
    for (const bag of bags) {
      const order = await liveOrderWithBarcode(tx, machine.businessId, bag.barcode);
      if (!order || bag.location === null) continue;
      await setBagOrder(tx, bag.id, order.id, deps.now());
      const moved = await loadOrder(tx, deps, locker, order.id, { location: bag.location });
      if (moved) loaded.push(moved);
    }
    const result = { processed: bags.length, matched: loaded.length };
    await auditMachine(tx, deps, actor, 'bags.reprocess', machine, result);
    return { result, loaded };
  });
  for (const order of loaded) publishOrder(deps, order);
  return result;
};
