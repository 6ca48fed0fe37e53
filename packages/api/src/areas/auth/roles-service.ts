import { AppError, type FieldError, roleDescription } from '@medlocker/core';
import { callerOf, enforceRoleScope } from '../../access/enforce.ts';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out, Service } from '../../context/method.ts';
import { liveOf } from '../../live/live.ts';
import { assertGroupAcceptsMembers } from '../groups/index.ts';
import { type Account, findUserByEmail } from '../users/index.ts';
import { addAsPharmacyAdmin } from './invitations-service.ts';
import type { Site } from './mails.ts';
import {
  deleteRole,
  findIdentityProvider,
  type RoleToStore,
  resourceName,
  setUserIdentityProvider,
  userRoleResources,
} from './repository.ts';
import { defaultProviderFor, providerRefusal } from './role-rules.ts';
import { createAccount, giveRole } from './role-writes.ts';
import { sendPasswordLink } from './service.ts';

const resourceTypeOf = { Business: 'business', Group: 'group' } as const;
type Db = AppDeps['db'];

/**
 * Checks every role of an Add-role request against SPEC §6: Business and Group need an existing
 * business or group (the role's own resource, else the request's resourceId); Support and Developer
 * take none and no access level. Returns the roles as stored, with the server's descriptions.
 */
async function rolesToStore(deps: AppDeps, input: In<'auth/addRoles'>): Promise<RoleToStore[]> {
  const problems: FieldError[] = [];
  const out: RoleToStore[] = [];
  for (const [i, role] of input.roles.entries()) {
    if (role.name === 'Support' || role.name === 'Developer') {
      if (role.resource)
        problems.push({
          path: `roles.${i}.resource`,
          id: 'INVALID_FORMAT',
          message: `A ${role.name} role has no resource`,
        });
      if (role.accessLevels.length > 0) {
        problems.push({
          path: `roles.${i}.accessLevels`,
          id: 'INVALID_FORMAT',
          message: `A ${role.name} role has no access levels`,
        });
      }
      out.push({
        name: role.name,
        resourceType: null,
        resourceId: null,
        accessLevels: [],
        description: roleDescription(role.name),
      });
      continue;
    }
    const resourceType = resourceTypeOf[role.name];
    const resourceId = role.resource ?? input.resourceId ?? null;
    if (!resourceId) {
      problems.push({ path: `roles.${i}.resource`, id: 'FIELD_REQUIRED', message: 'Field is required' });
      continue;
    }
    if (input.resourceType && input.resourceType !== resourceType && !role.resource) {
      problems.push({
        path: 'resourceType',
        id: 'INVALID_FORMAT',
        message: `A ${role.name} role needs a ${resourceType}`,
      });
      continue;
    }
    const name = await resourceName(deps.db, resourceType, resourceId);
    if (name === undefined) {
      problems.push({
        path: `roles.${i}.resource`,
        id: 'NOT_FOUND',
        message: `No ${resourceType} with id ${resourceId}`,
      });
      continue;
    }
    // SPEC §4: an archived group cannot have users added (409, the groups area's rule).
    if (resourceType === 'group') await assertGroupAcceptsMembers(deps.db, resourceId, 'users');
    const admin = role.accessLevels.includes('Admin');
    out.push({
      name: role.name,
      resourceType,
      resourceId,
      accessLevels: admin ? ['Admin'] : [],
      description: roleDescription(role.name, name, admin),
    });
  }
  if (problems.length > 0) throw new AppError('VALIDATION', problems[0]?.message ?? 'Invalid roles', problems);
  return out;
}

/**
 * What a pharmacy Admin may add (SPEC §1, §6): Business and Group roles on the businesses and groups
 * they administer, for the pharmacy front end, with a password (single sign-on by default is support's
 * choice, SPEC §6). A role without any resource is left to the SPEC §5 check ('Field is required').
 */
function assertPharmacyMayAdd(actor: StaffActor, input: In<'auth/addRoles'>): void {
  for (const role of input.roles) {
    if (role.name !== 'Business' && role.name !== 'Group') {
      throw new AppError('FORBIDDEN', `Only support staff manage ${role.name} roles`);
    }
  }
  const named = input.roles.map((role) => ({ name: role.name, resource: role.resource ?? input.resourceId ?? null }));
  enforceRoleScope(
    callerOf(actor),
    named.filter((role) => role.resource !== null),
    { admin: true },
  );
  if (input.frontEnd !== 'pharmacy') {
    throw new AppError('FORBIDDEN', 'Pharmacy administrators add users of the pharmacy front end');
  }
  if (input.addIdpByDefault) {
    throw new AppError('FORBIDDEN', 'Only support staff choose single sign-on by default');
  }
}

/**
 * Adds roles to the user of an email. A new email gets an account with no password and a forced
 * reset, and an invitation email with a link to choose a password. Support staff attach the roles at
 * once (refused when the user's identity provider would then refuse them); a pharmacy Admin invites
 * anyone not already theirs (invitations-service.ts).
 */
export async function addRoles(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'auth/addRoles'>,
  site: Site,
): Out<'auth/addRoles'> {
  if (actor.kind === 'pharmacy') assertPharmacyMayAdd(actor, input);
  const roles = await rolesToStore(deps, input);
  if (actor.kind === 'pharmacy') return addAsPharmacyAdmin(deps, actor, input, roles, site);
  const now = deps.now();
  const { user, created } = await deps.db.transaction().execute(async (trx) => {
    let user = await findUserByEmail(trx, input.email);
    let created = false;
    if (user) await assertProviderAllows(trx, user, roles);
    if (!user) {
      const idp = input.addIdpByDefault ? await defaultProviderFor(trx, roles) : undefined;
      const account = { email: input.email, frontEnd: input.frontEnd, identityProviderId: idp?.id ?? null };
      user = await createAccount(trx, deps, actor, account, now);
      created = true;
    }
    for (const role of roles) await giveRole(trx, deps, actor, user.id, role, now);
    return { user, created };
  });
  if (created && !user.identityProviderId) await sendPasswordLink(deps, actor, site, user, 'invite');
  liveOf(deps).accessChanged(user.id);
  return { outcome: 'added', userId: user.id, created };
}

/** An existing user's identity provider must still let them sign in with the roles added. */
async function assertProviderAllows(trx: Db, user: Account, roles: RoleToStore[]): Promise<void> {
  if (user.identityProviderId === null) return;
  const idp = await findIdentityProvider(trx, user.identityProviderId);
  const refusal = idp && (await providerRefusal(trx, idp, [...(await userRoleResources(trx, user.id)), ...roles]));
  if (refusal) throw new AppError('VALIDATION', refusal, [{ path: 'email', id: 'INVALID_VALUE', message: refusal }]);
}

export const removeRole: Service<'auth/removeRole'> = async (deps, actor, input) => {
  if (input.userId === actor.userId && input.roleName === 'Support') {
    throw new AppError('CONFLICT', 'You cannot remove your own Support role');
  }
  if (actor.kind === 'pharmacy') {
    enforceRoleScope(callerOf(actor), [{ name: input.roleName, resource: input.roleResource }], { admin: true });
    // An Admin who removed their own role could lock their business out of its user management.
    if (input.userId === actor.userId) throw new AppError('CONFLICT', 'You cannot remove your own role');
  }
  await deps.db.transaction().execute(async (trx) => {
    const removed = await deleteRole(trx, input.userId, input.roleName, input.roleResource);
    if (!removed) throw new AppError('NOT_FOUND', 'The user does not have that role');
    await audit(trx, deps, actor, {
      action: 'role.remove',
      entityType: 'user',
      entityId: input.userId,
      details: { role: input.roleName, resource: input.roleResource },
    });
  });
  // The user's open consoles read their access again (and lose the socket with the support scope).
  liveOf(deps).accessChanged(input.userId);
  return { ok: true };
};

export const editIdentityProvider: Service<'auth/editIdentityProvider'> = async (deps, actor, input) => {
  await deps.db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, input.email);
    if (!user) throw new AppError('NOT_FOUND', 'No user with that email');
    if (input.identityProviderId !== null) {
      const idp = await findIdentityProvider(trx, input.identityProviderId);
      if (!idp) throw new AppError('NOT_FOUND', 'No such identity provider');
      const refusal = await providerRefusal(trx, idp, await userRoleResources(trx, user.id));
      if (refusal)
        throw new AppError('VALIDATION', refusal, [
          { path: 'identityProviderId', id: 'INVALID_VALUE', message: refusal },
        ]);
    }
    await setUserIdentityProvider(trx, user.id, input.identityProviderId, deps.now());
    await audit(trx, deps, actor, {
      action: 'user.identityProvider.update',
      entityType: 'user',
      entityId: user.id,
      details: { changed: ['identityProvider'], from: user.identityProviderId, to: input.identityProviderId },
    });
  });
  return { ok: true };
};
