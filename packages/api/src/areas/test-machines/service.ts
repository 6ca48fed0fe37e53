import { AppError, type Machine, type TestMachine } from '@medlocker/core';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { liveOf } from '../../live/live.ts';
import { type IssuedCredentials, issueCredentials, tokenSealer } from '../device-auth/index.ts';
import {
  auditMachine,
  changeMachine,
  insertMachine,
  lockMachine,
  pageMachines,
  requireMachine,
} from '../machines/index.ts';
import { deleteTestMachine, liveCredential, machineBags } from './repository.ts';

/** Why a test machine's answer has no credentials (`credentialsNote`). */
export const credentialsNotes = {
  noCopy:
    'Its locker holds tokens issued without a kept copy (paired or refreshed before copies were kept), so they cannot be shown; pair it again to see new ones.',
  archived: 'An archived test machine has no credentials: unarchive it to get new ones.',
} as const;

/**
 * A test machine with its live credentials, opened from their sealed copies. Reading never revokes
 * anything: new credentials are issued only when the machine has none live (unarchived, or removed
 * by pairing before its locker collected its tokens), so no connected locker can be cut off. Live
 * tokens without a copy (issued before every issue kept one) are not shown, and not replaced.
 */
async function withCredentials(deps: AppDeps, _actor: StaffActor, found: Machine): Promise<TestMachine> {
  const { db, now } = deps;
  const sealer = tokenSealer(deps, found.id);
  const machine = { ...found, machineId: found.id };
  let stored = await liveCredential(db, found.id);
  if (!stored && found.archived !== null) {
    return { ...machine, credentials: null, credentialsNote: credentialsNotes.archived };
  }
  if (!stored) {
    stored = await db.transaction().execute(async (tx) => {
      // Locked, then looked at again: two reads at once issue one pair, not a pair the other revokes.
      const locked = await lockMachine(tx, found.id);
      const live = await liveCredential(tx, found.id);
      if (live || !locked || locked.machine.archived !== null) return live;
      await issueCredentials(tx, { businessId: found.businessId, machineId: found.id }, now(), sealer.seal);
      return liveCredential(tx, found.id);
    });
  }
  if (!stored) return { ...machine, credentials: null, credentialsNote: credentialsNotes.archived };
  if (!stored.sealedAccessToken || !stored.sealedRefreshToken) {
    return { ...machine, credentials: null, credentialsNote: credentialsNotes.noCopy };
  }
  return {
    ...machine,
    credentials: {
      accessToken: sealer.open(stored.sealedAccessToken),
      accessTokenExpires: stored.accessTokenExpires,
      refreshToken: sealer.open(stored.sealedRefreshToken),
    },
    credentialsNote: null,
  };
}

export const create: Service<'testMachines/create'> = async (deps, actor, input) => {
  let issued: IssuedCredentials | undefined;
  const { machine } = await insertMachine(deps, actor, input, { test: true }, async (tx, machine) => {
    // Paired at once: a test machine needs no Pair dialog.
    issued = await issueCredentials(
      tx,
      { businessId: machine.businessId, machineId: machine.id },
      deps.now(),
      tokenSealer(deps, machine.id).seal,
    );
  });
  if (!issued) throw new AppError('INTERNAL', 'Test machine credentials missing');
  const { accessToken, accessTokenExpires, refreshToken } = issued;
  return {
    testMachine: {
      ...machine,
      machineId: machine.id,
      credentials: { accessToken, accessTokenExpires, refreshToken },
      credentialsNote: null,
    },
  };
};

export const get: Service<'testMachines/get'> = async (deps, actor, input) => {
  const { machine } = await requireMachine(deps.db, input.id, true);
  await auditMachine(deps.db, deps, actor, 'testMachine.credentials.read', machine);
  return { testMachine: await withCredentials(deps, actor, machine) };
};

export const list: Service<'testMachines/list'> = async (deps, actor, input) => {
  const page = await pageMachines(deps, input, true);
  const testMachines: TestMachine[] = [];
  for (const { machine } of page.items) testMachines.push(await withCredentials(deps, actor, machine));
  return { testMachines, nextToken: page.nextToken };
};

export const update: Service<'testMachines/update'> = async (deps, actor, input) => {
  const { machine } = await changeMachine(deps, actor, input, { test: true });
  return { testMachine: await withCredentials(deps, actor, machine) };
};

export const remove: Service<'testMachines/remove'> = async (deps, actor, input) => {
  const { machine } = await requireMachine(deps.db, input.id, true);
  await deps.db.transaction().execute(async (tx) => {
    await deleteTestMachine(tx, machine.id);
    await auditMachine(tx, deps, actor, 'testMachine.remove', machine);
  });
  // Its credentials are gone with it: a connected locker is hung up on (4001) and pairs again.
  liveOf(deps).commandLocker({ machineId: machine.id, kind: 'disconnect', reason: 'Test machine removed' });
  return { ok: true };
};

export const getTestMachineBags: Service<'testMachines/getTestMachineBags'> = async (deps, _actor, input) => {
  const { machine } = await requireMachine(deps.db, input.id, true);
  return { bags: await machineBags(deps.db, machine.id) };
};
