import {
  AppError,
  type Contract,
  machinesPageSize,
  type OutputOf,
  type ParsedInputOf,
  type TestMachine,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import { liveOf } from '../../hubs/live.ts';
import type { AuthedContext } from '../../rpc/context.ts';
import { decodeCursor, pageOf } from '../../rpc/paging.ts';
import { toBag } from '../bags/repository.ts';
import { issueCredentials } from '../device-auth/repository.ts';
import { listMachineRows, type MachineRow, toMachine } from '../machines/repository.ts';
import { changeMachine, insertMachine, requireMachine } from '../machines/service.ts';
import { tokenSealer } from './credentials.ts';
import { deleteTestMachine, liveCredential, machineBags } from './repository.ts';

type TestMachines = Contract['testMachines'];
type In<M extends keyof TestMachines> = ParsedInputOf<TestMachines[M]>;
type Out<M extends keyof TestMachines> = Promise<OutputOf<TestMachines[M]>>;

/** A test machine with its live credentials (new ones when it has none, e.g. after re-pairing). */
async function withCredentials(ctx: AuthedContext, row: MachineRow): Promise<TestMachine> {
  const { db, now } = ctx.deps;
  const sealer = tokenSealer(ctx.deps, row.id);
  let stored = await liveCredential(db, row.id);
  if (!stored?.access_token_encrypted || !stored.refresh_token_encrypted) {
    await db
      .transaction()
      .execute((tx) => issueCredentials(tx, { businessId: row.business_id, machineId: row.id }, now(), sealer.seal));
    stored = await liveCredential(db, row.id);
  }
  if (!stored?.access_token_encrypted || !stored.refresh_token_encrypted) {
    throw new AppError('INTERNAL', 'Test machine credentials missing');
  }
  return {
    ...toMachine(row),
    machineId: row.id,
    credentials: {
      accessToken: sealer.open(stored.access_token_encrypted),
      accessTokenExpires: stored.access_token_expires_at,
      refreshToken: sealer.open(stored.refresh_token_encrypted),
    },
  };
}

export async function create(input: In<'create'>, ctx: AuthedContext): Out<'create'> {
  const { row } = await insertMachine(ctx.deps, ctx, input, { test: true }, async (tx, machine) => {
    // Paired at once: a test machine needs no Pair dialog.
    await issueCredentials(
      tx,
      { businessId: machine.business_id, machineId: machine.id },
      ctx.deps.now(),
      tokenSealer(ctx.deps, machine.id).seal,
    );
  });
  return { testMachine: await withCredentials(ctx, row) };
}

export async function get(input: In<'get'>, ctx: AuthedContext): Out<'get'> {
  const row = await requireMachine(ctx.deps.db, input.id, true);
  await audit(ctx.deps.db, ctx, {
    action: 'testMachine.credentials.read',
    entityType: 'machine',
    entityId: row.id,
    businessId: row.business_id,
  });
  return { testMachine: await withCredentials(ctx, row) };
}

export async function list(input: In<'list'>, ctx: AuthedContext): Out<'list'> {
  const after = decodeCursor(input.nextToken, 2);
  const rows = await listMachineRows(ctx.deps.db, {
    businessId: input.businessId,
    archived: false,
    test: true,
    ...(after ? { after } : {}),
    limit: machinesPageSize,
  });
  const page = pageOf(rows, machinesPageSize, (r) => r.key);
  const testMachines: TestMachine[] = [];
  for (const { row } of page.items) testMachines.push(await withCredentials(ctx, row));
  return { testMachines, nextToken: page.nextToken };
}

export async function update(input: In<'update'>, ctx: AuthedContext): Out<'update'> {
  const row = await changeMachine(ctx.deps, ctx, input, { test: true });
  return { testMachine: await withCredentials(ctx, row) };
}

export async function remove(input: In<'remove'>, ctx: AuthedContext): Out<'remove'> {
  const row = await requireMachine(ctx.deps.db, input.id, true);
  await ctx.deps.db.transaction().execute(async (tx) => {
    await deleteTestMachine(tx, row.id);
    await audit(tx, ctx, {
      action: 'testMachine.remove',
      entityType: 'machine',
      entityId: row.id,
      businessId: row.business_id,
    });
  });
  // Its credentials are gone with it: a connected locker is hung up on (4001) and pairs again.
  liveOf(ctx.deps).commandLocker({ machineId: row.id, kind: 'disconnect', reason: 'Test machine removed' });
  return { ok: true };
}

export async function getTestMachineBags(
  input: In<'getTestMachineBags'>,
  ctx: AuthedContext,
): Out<'getTestMachineBags'> {
  const row = await requireMachine(ctx.deps.db, input.id, true);
  return { bags: (await machineBags(ctx.deps.db, row.id)).map(toBag) };
}
