import { AppError, usersPageSize } from '@medlocker/core';
import { callerOf, enforceRoleScope, reachesRole } from '../../access/enforce.ts';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { Service } from '../../context/method.ts';
import { decodeCursor, pageOf } from '../../lists/paging.ts';
import { liveOf } from '../../live/live.ts';
import {
  findUserById,
  identityProviderOfUser,
  listUsersByRole,
  rolesOfUser,
  toUser,
  updateUserNames,
} from './repository.ts';

/** Support staff may see and change anyone; everybody else only themselves. */
function assertSelfOrSupport(actor: StaffActor, userId: string): void {
  if (actor.userId !== userId && actor.kind !== 'support') {
    throw new AppError('FORBIDDEN', 'You do not have access to this user');
  }
}

export const getUsersByRole: Service<'users/getUsersByRole'> = async (deps, actor, input) => {
  // Pharmacy users list the holders of a Business or Group role on what they reach, Admin or not
  // (docs/decisions/auth.md, Pharmacy administrators and their users).
  enforceRoleScope(callerOf(actor), [{ name: input.roleName, resource: input.roleResource ?? null }], {
    admin: false,
  });
  const after = decodeCursor(input.nextToken, 1);
  const rows = await listUsersByRole(deps.db, {
    roleName: input.roleName,
    roleResource: input.roleResource ?? null,
    ...(input.filterText !== undefined ? { filterText: input.filterText } : {}),
    ...(after ? { after } : {}),
    limit: usersPageSize,
  });
  const page = pageOf(rows, usersPageSize, (r) => [r.account.emailNormalised]);
  const users = page.items.map((r) => toUser(r.account, r.accessLevels));
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
};

/**
 * A user's details. Support staff see anyone; everybody sees themselves; a pharmacy Admin sees the
 * holders of Business and Group roles on what they administer, with only those roles (a user's roles
 * elsewhere are other businesses' affairs). A pharmacy user without Admin there is refused (403);
 * anyone else is 404 'No such user', as for an id that does not exist.
 */
export const getUser: Service<'users/getUser'> = async (deps, actor, input) => {
  const row = await findUserById(deps.db, input.id);
  const all = row ? await rolesOfUser(deps.db, row.id) : [];
  const caller = callerOf(actor);
  const seesAll = actor.kind === 'support' || actor.userId === input.id;
  const roles = seesAll ? all : all.filter((r) => reachesRole(caller, r, { admin: true }));
  if (!seesAll && roles.length === 0) {
    if (all.some((r) => reachesRole(caller, r, { admin: false }))) {
      throw new AppError('FORBIDDEN', 'You need the Admin access level to see this user');
    }
    throw new AppError('NOT_FOUND', 'No such user');
  }
  if (!row) throw new AppError('NOT_FOUND', 'No such user');
  const identityProvider = await identityProviderOfUser(deps.db, row);
  await audit(deps.db, deps, actor, { action: 'user.read', entityType: 'user', entityId: row.id });
  const accessLevels = [...new Set(roles.flatMap((r) => r.accessLevels))].sort();
  return { user: toUser(row, accessLevels), roles, identityProvider };
};

export const updateUser: Service<'users/updateUser'> = async (deps, actor, input) => {
  assertSelfOrSupport(actor, input.id);
  const updated = await deps.db.transaction().execute(async (trx) => {
    const before = await findUserById(trx, input.id);
    if (!before) throw new AppError('NOT_FOUND', 'No such user');
    const after = await updateUserNames(trx, input.id, input, deps.now());
    if (!after) throw new AppError('NOT_FOUND', 'No such user');
    const changed = [
      ...(before.givenName !== after.givenName ? ['givenName'] : []),
      ...(before.familyName !== after.familyName ? ['familyName'] : []),
    ];
    await audit(trx, deps, actor, {
      action: 'user.update',
      entityType: 'user',
      entityId: after.id,
      details: { changed },
    });
    return { user: toUser(after) };
  });
  // Sessions carry the user's name (audit entries, dismissals, "held by"): every process looks it up
  // again on the next call instead of answering from its remembered session.
  liveOf(deps).accessChanged(input.id);
  return updated;
};
