import { type Contract, machinesPageSize, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import type { StaffActor } from '../../actor.ts';
import { audit } from '../../audit/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { decodeIdCursor, pageOf } from '../../rpc/paging.ts';
import { requireMachine } from '../machines/service.ts';
import { listBagRows, matchBagsToOrders, toBag } from './repository.ts';

type Bags = Contract['bags'];

export async function listBags(
  deps: AppDeps,
  _actor: StaffActor,
  input: ParsedInputOf<Bags['listBags']>,
): Promise<OutputOf<Bags['listBags']>> {
  const before = decodeIdCursor(input.nextToken);
  const rows = await listBagRows(deps.db, {
    businessId: input.businessId,
    ...(input.machineId ? { machineId: input.machineId } : {}),
    ...(input.filter ? { filter: input.filter } : {}),
    ...(before ? { before } : {}),
    limit: machinesPageSize,
  });
  const page = pageOf(rows, machinesPageSize, (r) => [r.id]);
  return { bags: page.items.map(toBag), nextToken: page.nextToken };
}

export async function reprocessBags(
  deps: AppDeps,
  actor: StaffActor,
  input: ParsedInputOf<Bags['reprocessBags']>,
): Promise<OutputOf<Bags['reprocessBags']>> {
  const machine = await requireMachine(deps.db, input.machineId);
  return deps.db.transaction().execute(async (tx) => {
    const result = await matchBagsToOrders(tx, machine.business_id, machine.id, deps.now());
    await audit(tx, deps, actor, {
      action: 'bags.reprocess',
      entityType: 'machine',
      entityId: machine.id,
      businessId: machine.business_id,
      details: result,
    });
    return result;
  });
}
