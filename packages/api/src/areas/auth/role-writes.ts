import { AppError, type FrontEnd } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { type Account, findUserByEmail, insertUser } from '../users/index.ts';
import { type RoleToStore, upsertRole } from './repository.ts';

type Trx = AppDeps['db'];

/**
 * The account of a new email, no password and no names yet (they choose both at first sign-in), audited;
 * one created meanwhile by a concurrent call is taken instead.
 */
export async function createAccount(
  trx: Trx,
  deps: AppDeps,
  actor: StaffActor,
  account: { email: string; frontEnd: FrontEnd; identityProviderId: string | null },
  now: number,
): Promise<Account> {
  const { email, frontEnd, identityProviderId } = account;
  let user = await insertUser(trx, { email, frontEnd, givenName: '', familyName: '', identityProviderId, now });
  // Created meanwhile by someone else: use theirs.
  user ??= await findUserByEmail(trx, email);
  if (!user) throw new AppError('CONFLICT', 'The user could not be created; please try again');
  await audit(trx, deps, actor, {
    action: 'user.create',
    entityType: 'user',
    entityId: user.id,
    details: { frontEnd, identityProviderId: user.identityProviderId },
  });
  return user;
}

/** Gives a user a role, audited as `role.add` (with `extra` details, e.g. the invitation it came from). */
export async function giveRole(
  trx: Trx,
  deps: AppDeps,
  actor: StaffActor,
  userId: string,
  role: RoleToStore,
  now: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await upsertRole(trx, userId, role, now);
  await audit(trx, deps, actor, {
    action: 'role.add',
    entityType: 'user',
    entityId: userId,
    businessId: role.resourceType === 'business' ? role.resourceId : null,
    details: {
      role: role.name,
      resourceType: role.resourceType,
      resource: role.resourceId,
      accessLevels: role.accessLevels,
      ...extra,
    },
  });
}
