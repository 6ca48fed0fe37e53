import { AppError, type Machine, machinesPageSize, messages, TEMPERATURE_WINDOW_MS } from '@medlocker/core';
import { refuseDuplicate } from '@medlocker/db';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Service } from '../../context/method.ts';
import { decodeCursor, pageBeforeId, pageOf } from '../../lists/paging.ts';
import { liveOf } from '../../live/live.ts';
import { requireBusiness } from '../business-settings/index.ts';
import { listMachineEvents } from './event-repository.ts';
import { auditMachine } from './machine-audit.ts';
import {
  chartReadings,
  type Db,
  findMachine,
  insertNewMachine,
  isPaired,
  listMachineStatuses,
  listMachinesByName,
  lockMachine,
  type MachineRecord,
  nameTaken,
  patchMachine,
  reportedSlotsOf,
} from './repository.ts';

const duplicateName = () =>
  new AppError('CONFLICT', messages.duplicateMachineName, [
    { path: 'name', id: 'DUPLICATE_NAME', message: messages.duplicateMachineName },
  ]);

/** A machine that exists (404 otherwise); `test` chooses between machines and test machines. */
export async function requireMachine(db: Db, id: string, test?: boolean): Promise<MachineRecord> {
  const found = await findMachine(db, id);
  if (!found || (test !== undefined && found.test !== test)) {
    throw new AppError('NOT_FOUND', `${test ? 'Test machine' : 'Machine'} ${id} not found`);
  }
  return found;
}

export async function insertMachine(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'machines/createMachine'>,
  options: { test: boolean },
  inTx?: (tx: Db, machine: Machine) => Promise<void>,
): Promise<{ machine: Machine; businessName: string }> {
  const business = await requireBusiness(deps.db, input.businessId);
  if (business.archived) throw new AppError('CONFLICT', 'An archived business cannot have machines added');
  const now = deps.now();
  return refuseDuplicate(duplicateName, async () => {
    const machine = await deps.db.transaction().execute(async (tx) => {
      if (await nameTaken(tx, input.businessId, input.name)) throw duplicateName();
      const { machine } = await insertNewMachine(tx, {
        businessId: input.businessId,
        name: input.name,
        numberOfSlots: input.numberOfSlots,
        paymentsEnabled: input.paymentsEnabled ?? false,
        test: options.test,
        createdBy: actor.userId,
        now,
      });
      await auditMachine(tx, deps, actor, options.test ? 'testMachine.create' : 'machine.create', machine, {
        fields: ['name', 'numberOfSlots', 'paymentsEnabled'],
      });
      await inTx?.(tx, machine);
      return machine;
    });
    return { machine, businessName: business.name };
  });
}

export async function changeMachine(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'machines/updateMachine'>,
  options: { test: boolean },
): Promise<MachineRecord> {
  return refuseDuplicate(duplicateName, async () => {
    return await deps.db.transaction().execute(async (tx) => {
      const locked = await lockMachine(tx, input.id);
      if (!locked || locked.test !== options.test) throw new AppError('NOT_FOUND', `Machine ${input.id} not found`);
      const current = locked.machine;
      if (current.archived !== null) throw new AppError('CONFLICT', 'An archived machine cannot be edited');
      if (await nameTaken(tx, current.businessId, input.name, current.id)) throw duplicateName();
      const paymentsEnabled = input.paymentsEnabled ?? current.paymentsEnabled;
      const changed = [
        ...(input.name !== current.name ? ['name'] : []),
        ...(input.numberOfSlots !== current.numberOfSlots ? ['numberOfSlots'] : []),
        ...(paymentsEnabled !== current.paymentsEnabled ? ['paymentsEnabled'] : []),
      ];
      const updated = await patchMachine(tx, current.id, {
        name: input.name,
        numberOfSlots: input.numberOfSlots,
        paymentsEnabled,
        updated: deps.now(),
      });
      await auditMachine(tx, deps, actor, options.test ? 'testMachine.update' : 'machine.update', current, {
        fields: changed,
      });
      return updated;
    });
  });
}

export const createMachine: Service<'machines/createMachine'> = async (deps, actor, input) => {
  const { machine, businessName } = await insertMachine(deps, actor, input, { test: false });
  // Consoles watching the business or the fleet see it at once (the dashboard lists it as offline): a
  // new machine counts in the fleet (not a test machine; its business is current, or it was refused).
  liveOf(deps).publish({
    businessId: machine.businessId,
    machineId: machine.id,
    message: { action: 'statusUpdate', params: { machine, online: false, lastSeen: null, businessName } },
  });
  return { machine };
};

export const getMachine: Service<'machines/getMachine'> = async (deps, _actor, input) => {
  const { db, now } = deps;
  const { machine, online, lastSeen, test } = await requireMachine(db, input.id);
  // The whole window the 3-hour average is judged on, thinned to a fixed number of points that keeps
  // each stretch's lowest and highest reading.
  const to = now();
  const readings = await chartReadings(db, {
    businessId: machine.businessId,
    machineId: machine.id,
    from: to - TEMPERATURE_WINDOW_MS,
    to,
  });
  const paired = await isPaired(db, machine.id);
  const reportedSlots = await reportedSlotsOf(db, machine.id);
  const { temperatureStatus } = machine;
  return {
    machine: { ...machine, temperatureStatus: temperatureStatus && { ...temperatureStatus, readings } },
    online,
    lastSeen,
    paired,
    test,
    reportedSlots,
  };
};

/** A page of a business's machines (or test machines) by name, for a list method: live ones unless `archived`. */
export async function pageMachines(
  deps: AppDeps,
  q: Pick<In<'machines/listMachines'>, 'businessId' | 'archived' | 'filter' | 'nextToken'>,
  test: boolean,
): Promise<{ items: MachineRecord[]; nextToken: string | null }> {
  const after = decodeCursor(q.nextToken, 2);
  const rows = await listMachinesByName(deps.db, {
    businessId: q.businessId,
    archived: q.archived ?? false,
    test,
    ...(q.filter ? { filter: q.filter } : {}),
    ...(after ? { after } : {}),
    limit: machinesPageSize,
  });
  const page = pageOf(rows, machinesPageSize, (r) => r.key);
  return { items: page.items.map((r) => r.record), nextToken: page.nextToken };
}

export const listMachines: Service<'machines/listMachines'> = async (deps, _actor, input) => {
  const page = await pageMachines(deps, input, false);
  return {
    machines: page.items.map(({ machine, online, lastSeen }) => ({ ...machine, online, lastSeen })),
    nextToken: page.nextToken,
  };
};

export const updateMachine: Service<'machines/updateMachine'> = async (deps, actor, input) => {
  const { machine, test } = await changeMachine(deps, actor, input, { test: false });
  liveOf(deps).publish({
    businessId: machine.businessId,
    machineId: machine.id,
    fleet: !test,
    message: { action: 'statusUpdate', params: { machine } },
  });
  return { machine };
};

export const listMachineStatus: Service<'machines/listMachineStatus'> = async (deps, _actor, input) => {
  const { machine } = await requireMachine(deps.db, input.machineId);
  const page = await pageBeforeId(input.nextToken, machinesPageSize, (at) =>
    listMachineStatuses(deps.db, { businessId: machine.businessId, machineId: machine.id, ...at }),
  );
  return { statuses: page.items, nextToken: page.nextToken };
};

export const listEvents: Service<'machines/listEvents'> = async (deps, _actor, input) => {
  const { machine } = await requireMachine(deps.db, input.machineId);
  const page = await pageBeforeId(input.nextToken, machinesPageSize, (at) =>
    listMachineEvents(deps.db, {
      businessId: machine.businessId,
      machineId: machine.id,
      ...(input.level ? { level: input.level } : {}),
      ...(input.code ? { code: input.code } : {}),
      ...at,
    }),
  );
  return { events: page.items, nextToken: page.nextToken };
};

export const isMachineAvailable: Service<'machines/isMachineAvailable'> = async (deps, _actor, input) => {
  const { machine, online } = await requireMachine(deps.db, input.id);
  const reason =
    machine.archived !== null
      ? 'archived'
      : machine.outOfOrderStatus !== null
        ? 'outOfOrder'
        : online
          ? null
          : 'offline';
  return { available: reason === null, reason };
};
