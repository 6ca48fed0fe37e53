import { AppError, type Contract, type OutputOf, type ParsedInputOf, usersPageSize } from '@medlocker/core';
import type { StaffActor } from '../../actor.ts';
import { audit } from '../../audit/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { decodeCursor, pageOf } from '../../rpc/paging.ts';
import {
  findUserById,
  identityProviderOfUser,
  listUsersByRole,
  rolesOfUser,
  toUser,
  updateUserNames,
} from './repository.ts';

type Users = Contract['users'];
type In<M extends keyof Users> = ParsedInputOf<Users[M]>;
type Out<M extends keyof Users> = OutputOf<Users[M]>;

/** Support staff may see and change anyone; everybody else only themselves. */
function assertSelfOrSupport(actor: StaffActor, userId: string): void {
  if (actor.userId !== userId && actor.kind !== 'support') {
    throw new AppError('FORBIDDEN', 'You do not have access to this user');
  }
}

export async function getUsersByRole(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'getUsersByRole'>,
): Promise<Out<'getUsersByRole'>> {
  const after = decodeCursor(input.nextToken, 1);
  const rows = await listUsersByRole(deps.db, {
    roleName: input.roleName,
    roleResource: input.roleResource ?? null,
    ...(input.filterText !== undefined ? { filterText: input.filterText } : {}),
    ...(after ? { after } : {}),
    limit: usersPageSize,
  });
  const page = pageOf(rows, usersPageSize, (r) => [r.row.email_normalised]);
  const users = page.items.map((r) => toUser(r.row, r.accessLevels));
  await audit(deps.db, deps, actor, {
    action: 'user.list',
    entityType: 'user',
    details: {
      roleName: input.roleName,
      roleResource: input.roleResource ?? null,
      filtered: Boolean(input.filterText?.trim()),
      userIds: users.map((u) => u.id),
    },
  });
  return { users, nextToken: page.nextToken };
}

export async function getUser(deps: AppDeps, actor: StaffActor, input: In<'getUser'>): Promise<Out<'getUser'>> {
  assertSelfOrSupport(actor, input.id);
  const row = await findUserById(deps.db, input.id);
  if (!row) throw new AppError('NOT_FOUND', 'No such user');
  const roles = await rolesOfUser(deps.db, row.id);
  const identityProvider = await identityProviderOfUser(deps.db, row);
  await audit(deps.db, deps, actor, { action: 'user.read', entityType: 'user', entityId: row.id });
  const accessLevels = [...new Set(roles.flatMap((r) => r.accessLevels))].sort();
  return { user: toUser(row, accessLevels), roles, identityProvider };
}

export async function updateUser(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'updateUser'>,
): Promise<Out<'updateUser'>> {
  assertSelfOrSupport(actor, input.id);
  return deps.db.transaction().execute(async (trx) => {
    const before = await findUserById(trx, input.id);
    if (!before) throw new AppError('NOT_FOUND', 'No such user');
    const after = await updateUserNames(trx, input.id, input, deps.now());
    if (!after) throw new AppError('NOT_FOUND', 'No such user');
    const changed = [
      ...(before.given_name !== after.given_name ? ['givenName'] : []),
      ...(before.family_name !== after.family_name ? ['familyName'] : []),
    ];
    await audit(trx, deps, actor, {
      action: 'user.update',
      entityType: 'user',
      entityId: after.id,
      details: { changed },
    });
    return { user: toUser(after) };
  });
}
