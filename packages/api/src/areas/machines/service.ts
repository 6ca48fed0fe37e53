import {
  AppError,
  type Contract,
  machinesPageSize,
  messages,
  type OutputOf,
  type ParsedInputOf,
  TEMPERATURE_WINDOW_MS,
} from '@medlocker/core';
import { isUniqueViolation } from '@medlocker/db';
import type { StaffActor } from '../../actor.ts';
import { audit } from '../../audit/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { decodeCursor, decodeIdCursor, pageOf } from '../../lists/paging.ts';
import { liveOf } from '../../live/live.ts';
import { publishRecorded, recordMachineEvent } from './events.ts';
import {
  chartReadings,
  type Db,
  findBusinessSummary,
  findMachine,
  insertMachineRow,
  isPaired,
  listEventRows,
  listMachineRows,
  listStatusRows,
  lockMachine,
  type MachineRow,
  nameTaken,
  revokeCredentials,
  toMachine,
  toMachineEvent,
  updateMachineRow,
} from './repository.ts';

type Machines = Contract['machines'];
type In<M extends keyof Machines> = ParsedInputOf<Machines[M]>;
type Out<M extends keyof Machines> = Promise<OutputOf<Machines[M]>>;

const duplicateName = () =>
  new AppError('CONFLICT', messages.duplicateMachineName, [
    { path: 'name', id: 'DUPLICATE_NAME', message: messages.duplicateMachineName },
  ]);

/** A machine that exists (404 otherwise); `test` chooses between machines and test machines. */
export async function requireMachine(db: Db, id: string, test?: boolean): Promise<MachineRow> {
  const row = await findMachine(db, id);
  if (!row || (test !== undefined && row.is_test !== test)) {
    throw new AppError('NOT_FOUND', `${test ? 'Test machine' : 'Machine'} ${id} not found`);
  }
  return row;
}

export async function requireBusiness(db: Db, id: string) {
  const row = await findBusinessSummary(db, id);
  if (!row) throw new AppError('NOT_FOUND', `Business ${id} not found`);
  return row;
}

/**
 * What a push about a machine back in the fleet (unarchived) adds for the dashboard: the
 * business's name, given only when the machine now counts in the fleet (not a test machine, its
 * business not archived), so a dashboard adds exactly the machines its summary would list.
 */
async function fleetEntry(db: Db, row: MachineRow): Promise<{ businessName?: string }> {
  if (row.is_test || row.archived_at !== null) return {};
  const business = await requireBusiness(db, row.business_id);
  return business.archived_at === null ? { businessName: business.name } : {};
}

export async function insertMachine(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'createMachine'>,
  options: { test: boolean },
  inTx?: (tx: Db, row: MachineRow) => Promise<void>,
): Promise<{ row: MachineRow; businessName: string }> {
  const business = await requireBusiness(deps.db, input.businessId);
  if (business.archived_at !== null) throw new AppError('CONFLICT', 'An archived business cannot have machines added');
  const now = deps.now();
  try {
    const row = await deps.db.transaction().execute(async (tx) => {
      if (await nameTaken(tx, input.businessId, input.name)) throw duplicateName();
      const row = await insertMachineRow(tx, {
        businessId: input.businessId,
        name: input.name,
        numberOfSlots: input.numberOfSlots,
        paymentsEnabled: input.paymentsEnabled ?? false,
        test: options.test,
        now,
      });
      await audit(tx, deps, actor, {
        action: options.test ? 'testMachine.create' : 'machine.create',
        entityType: 'machine',
        entityId: row.id,
        businessId: row.business_id,
        details: { fields: ['name', 'numberOfSlots', 'paymentsEnabled'] },
      });
      await inTx?.(tx, row);
      return row;
    });
    return { row, businessName: business.name };
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
}

export async function changeMachine(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'updateMachine'>,
  options: { test: boolean },
): Promise<MachineRow> {
  try {
    return await deps.db.transaction().execute(async (tx) => {
      const current = await lockMachine(tx, input.id);
      if (!current || current.is_test !== options.test)
        throw new AppError('NOT_FOUND', `Machine ${input.id} not found`);
      if (current.archived_at !== null) throw new AppError('CONFLICT', 'An archived machine cannot be edited');
      if (await nameTaken(tx, current.business_id, input.name, current.id)) throw duplicateName();
      const paymentsEnabled = input.paymentsEnabled ?? current.payments_enabled;
      const changed = [
        ...(input.name !== current.name ? ['name'] : []),
        ...(input.numberOfSlots !== current.number_of_slots ? ['numberOfSlots'] : []),
        ...(paymentsEnabled !== current.payments_enabled ? ['paymentsEnabled'] : []),
      ];
      const row = await updateMachineRow(tx, current.id, {
        name: input.name,
        number_of_slots: input.numberOfSlots,
        payments_enabled: paymentsEnabled,
        updated: deps.now(),
      });
      await audit(tx, deps, actor, {
        action: options.test ? 'testMachine.update' : 'machine.update',
        entityType: 'machine',
        entityId: row.id,
        businessId: row.business_id,
        details: { fields: changed },
      });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
}

export async function createMachine(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'createMachine'>,
): Out<'createMachine'> {
  const { row, businessName } = await insertMachine(deps, actor, input, { test: false });
  const machine = toMachine(row);
  // Consoles watching the business or the fleet see it at once (the dashboard lists it as offline): a
  // new machine counts in the fleet (not a test machine; its business is current, or it was refused).
  liveOf(deps).publish({
    businessId: row.business_id,
    machineId: row.id,
    message: { action: 'statusUpdate', params: { machine, online: false, lastSeen: null, businessName } },
  });
  return { machine };
}

export async function getMachine(deps: AppDeps, _actor: StaffActor, input: In<'getMachine'>): Out<'getMachine'> {
  const { db, now } = deps;
  const row = await requireMachine(db, input.id);
  // The whole window the 3-hour average is judged on, thinned to a fixed number of points that keeps
  // each stretch's lowest and highest reading.
  const to = now();
  const readings = await chartReadings(db, {
    businessId: row.business_id,
    machineId: row.id,
    from: to - TEMPERATURE_WINDOW_MS,
    to,
  });
  const paired = await isPaired(db, row.id);
  return { machine: toMachine(row, readings), online: row.online, lastSeen: row.last_seen, paired };
}

export async function listMachines(deps: AppDeps, _actor: StaffActor, input: In<'listMachines'>): Out<'listMachines'> {
  const after = decodeCursor(input.nextToken, 2);
  const rows = await listMachineRows(deps.db, {
    businessId: input.businessId,
    archived: input.archived ?? false,
    test: false,
    ...(input.filter ? { filter: input.filter } : {}),
    ...(after ? { after } : {}),
    limit: machinesPageSize,
  });
  const page = pageOf(rows, machinesPageSize, (r) => r.key);
  return {
    machines: page.items.map(({ row }) => ({ ...toMachine(row), online: row.online, lastSeen: row.last_seen })),
    nextToken: page.nextToken,
  };
}

export async function updateMachine(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'updateMachine'>,
): Out<'updateMachine'> {
  const row = await changeMachine(deps, actor, input, { test: false });
  liveOf(deps).publish({
    businessId: row.business_id,
    machineId: row.id,
    fleet: !row.is_test,
    message: { action: 'statusUpdate', params: { machine: toMachine(row) } },
  });
  return { machine: toMachine(row) };
}

export async function toggleArchive(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'toggleArchive'>,
): Out<'toggleArchive'> {
  const now = deps.now();
  const { row, recorded, archiving } = await deps.db.transaction().execute(async (tx) => {
    const current = await lockMachine(tx, input.id);
    if (!current) throw new AppError('NOT_FOUND', `Machine ${input.id} not found`);
    const archiving = current.archived_at === null;
    const row = await updateMachineRow(
      tx,
      current.id,
      archiving
        ? {
            archived_at: now,
            archived_by_id: actor.userId,
            archived_by_display: actor.displayName,
            online: false,
            updated: now,
          }
        : { archived_at: null, archived_by_id: null, archived_by_display: null, updated: now },
    );
    // An archived machine cannot be paired: its credentials end now, and pending codes with them.
    if (archiving) await revokeCredentials(tx, row.id, now);
    const recorded = await recordStaffChange(tx, deps, actor, row, {
      code: archiving ? 'MP_0004' : 'MP_0005',
      action: archiving ? 'machine.archive' : 'machine.unarchive',
      now,
    });
    return { row, recorded, archiving };
  });
  const live = liveOf(deps);
  if (archiving) live.commandLocker({ machineId: row.id, kind: 'disconnect', reason: 'Machine archived' });
  publishRecorded(deps, recorded);
  live.publish({
    businessId: row.business_id,
    machineId: row.id,
    fleet: !row.is_test,
    message: {
      action: archiving ? 'archived' : 'unarchived',
      params: {
        entity: 'machine',
        id: row.id,
        machine: toMachine(row),
        ...(archiving ? {} : await fleetEntry(deps.db, row)),
      },
    },
  });
  return { machine: toMachine(row) };
}

/**
 * A change staff made to a machine (archive, out of order): its MP_ event, saying who, and its audit
 * entry, in the caller's transaction.
 */
async function recordStaffChange(
  tx: Db,
  deps: AppDeps,
  actor: StaffActor,
  row: MachineRow,
  change: { code: 'MP_0002' | 'MP_0003' | 'MP_0004' | 'MP_0005'; action: string; now: number },
) {
  const recorded = await recordMachineEvent(tx, deps, row, {
    code: change.code,
    data: { userId: actor.userId, userDisplayName: actor.displayName },
    created: change.now,
  });
  await audit(tx, deps, actor, {
    action: change.action,
    entityType: 'machine',
    entityId: row.id,
    businessId: row.business_id,
  });
  return recorded;
}

export async function toggleOutOfOrderStatus(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'toggleOutOfOrderStatus'>,
): Out<'toggleOutOfOrderStatus'> {
  const now = deps.now();
  const { row, recorded } = await deps.db.transaction().execute(async (tx) => {
    const current = await lockMachine(tx, input.id);
    if (!current) throw new AppError('NOT_FOUND', `Machine ${input.id} not found`);
    if (current.archived_at !== null) throw new AppError('CONFLICT', 'An archived machine cannot be edited');
    const goingOut = current.out_of_order_at === null;
    const row = await updateMachineRow(
      tx,
      current.id,
      goingOut
        ? {
            out_of_order_at: now,
            out_of_order_by_id: actor.userId,
            out_of_order_by_display: actor.displayName,
            updated: now,
          }
        : { out_of_order_at: null, out_of_order_by_id: null, out_of_order_by_display: null, updated: now },
    );
    const recorded = await recordStaffChange(tx, deps, actor, row, {
      code: goingOut ? 'MP_0003' : 'MP_0002',
      action: goingOut ? 'machine.outOfOrder' : 'machine.inOrder',
      now,
    });
    return { row, recorded };
  });
  const machine = toMachine(row);
  const live = liveOf(deps);
  const notified = live.callLocker({
    machineId: row.id,
    action: 'SetOutOfOrder',
    payload: { outOfOrder: machine.outOfOrderStatus !== null, at: now, by: actor.displayName },
  });
  publishRecorded(deps, recorded);
  live.publish({
    businessId: row.business_id,
    machineId: row.id,
    fleet: !row.is_test,
    message: { action: 'statusUpdate', params: { machine, online: row.online, lastSeen: row.last_seen } },
  });
  // The locker hears it now when connected; otherwise BootNotification's result tells it on reconnect.
  return { machine, lockerNotified: row.online && (await notified) };
}

export async function listMachineStatus(
  deps: AppDeps,
  _actor: StaffActor,
  input: In<'listMachineStatus'>,
): Out<'listMachineStatus'> {
  const row = await requireMachine(deps.db, input.machineId);
  const before = decodeIdCursor(input.nextToken);
  const rows = await listStatusRows(deps.db, {
    businessId: row.business_id,
    machineId: row.id,
    ...(before ? { before } : {}),
    limit: machinesPageSize,
  });
  const page = pageOf(rows, machinesPageSize, (r) => [r.id]);
  return { statuses: page.items, nextToken: page.nextToken };
}

export async function listEvents(deps: AppDeps, _actor: StaffActor, input: In<'listEvents'>): Out<'listEvents'> {
  const row = await requireMachine(deps.db, input.machineId);
  const before = decodeIdCursor(input.nextToken);
  const rows = await listEventRows(deps.db, {
    businessId: row.business_id,
    machineId: row.id,
    ...(input.level ? { level: input.level } : {}),
    ...(input.code ? { code: input.code } : {}),
    ...(before ? { before } : {}),
    limit: machinesPageSize,
  });
  const page = pageOf(rows, machinesPageSize, (r) => [r.id]);
  return { events: page.items.map(toMachineEvent), nextToken: page.nextToken };
}

export async function isMachineAvailable(
  deps: AppDeps,
  _actor: StaffActor,
  input: In<'isMachineAvailable'>,
): Out<'isMachineAvailable'> {
  const row = await requireMachine(deps.db, input.id);
  const reason =
    row.archived_at !== null ? 'archived' : row.out_of_order_at !== null ? 'outOfOrder' : row.online ? null : 'offline';
  return { available: reason === null, reason };
}
