import {
  AppError,
  type Contract,
  type FieldError,
  type OutputOf,
  type ParsedInputOf,
  roleDescription,
} from '@medlocker/core';
import { callerOf, enforceRoleScope } from '../../access/enforce.ts';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { liveOf } from '../../live/live.ts';
import { assertGroupAcceptsMembers } from '../groups/index.ts';
import { findUserByEmail, insertUser } from '../users/index.ts';
import type { Site } from './mails.ts';
import {
  businessIdsOfGroup,
  deleteRole,
  findIdentityProvider,
  identityProvidersOldestFirst,
  type ProviderRecord,
  type RoleToStore,
  resourceName,
  setUserIdentityProvider,
  upsertRole,
  userRoleResources,
} from './repository.ts';
import { sendPasswordLink } from './service.ts';

type Auth = Contract['auth'];
type In<M extends keyof Auth> = ParsedInputOf<Auth[M]>;
type Out<M extends keyof Auth> = OutputOf<Auth[M]>;

const resourceTypeOf = { Business: 'business', Group: 'group' } as const;

/**
 * Checks every role of an Add-role request against SPEC §6: Business and Group need an existing
 * business or group (the role's own resource, else the request's resourceId); Support and Developer
 * take none and no access level. Returns the roles as stored, with the server's descriptions.
 */
async function rolesToStore(deps: AppDeps, input: In<'addRoles'>): Promise<RoleToStore[]> {
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
function assertPharmacyMayAdd(actor: StaffActor, input: In<'addRoles'>): void {
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

type Db = AppDeps['db'];
type RoleResource = { resourceType: string | null; resourceId: string | null };

/**
 * Whether a provider may be a user's (issue 22): a global one always; one tied to a business only when
 * every role is on that business; one tied to a group only when every role is on the group or one of its
 * businesses, and at least one role is there (a Support or Developer role, or another business, is
 * outside). The same rule sign-in applies (sso/repository.ts userHasRoleOutside). Null when it may, else why not.
 */
async function providerRefusal(db: Db, idp: ProviderRecord, roles: RoleResource[]): Promise<string | null> {
  if (idp.businessId === null && idp.groupId === null) return null;
  const groupBusinesses = new Set(idp.groupId ? await businessIdsOfGroup(db, idp.groupId) : []);
  const inside = (r: RoleResource) =>
    idp.businessId !== null
      ? r.resourceType === 'business' && r.resourceId === idp.businessId
      : (r.resourceType === 'group' && r.resourceId === idp.groupId) ||
        (r.resourceType === 'business' && r.resourceId !== null && groupBusinesses.has(r.resourceId));
  if (roles.length > 0 && roles.every(inside)) return null;
  const scope =
    idp.businessId !== null
      ? `the business ${(await resourceName(db, 'business', idp.businessId)) ?? idp.businessId}`
      : `the group ${(await resourceName(db, 'group', idp.groupId ?? '')) ?? idp.groupId}`;
  return roles.length === 0
    ? `The identity provider ${idp.name} is for ${scope} only, and this user has no role there`
    : `The identity provider ${idp.name} is for ${scope} only, and this user has roles outside it`;
}

/**
 * The provider "single sign-on by default" gives a new user: the oldest of those that may be theirs,
 * one tied to their business first, then their group's, then a global one; a refusal in words when none fits.
 */
async function defaultProviderFor(db: Db, roles: RoleResource[]): Promise<ProviderRecord> {
  const all = await identityProvidersOldestFirst(db);
  const rank = (idp: ProviderRecord) => (idp.businessId !== null ? 0 : idp.groupId !== null ? 1 : 2);
  for (const idp of [...all].sort((a, b) => rank(a) - rank(b))) {
    if ((await providerRefusal(db, idp, roles)) === null) return idp;
  }
  const message =
    all.length === 0
      ? 'There is no identity provider to sign in with: add one first'
      : "No identity provider serves this user's roles: add a global one or one for their business or group";
  throw new AppError('VALIDATION', message, [{ path: 'addIdpByDefault', id: 'INVALID_VALUE', message }]);
}

/**
 * Adds roles to the user of an email. A new email gets an account with no password and a forced
 * reset, and an invitation email with a link to choose a password.
 */
export async function addRoles(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'addRoles'>,
  site: Site,
): Promise<Out<'addRoles'>> {
  if (actor.kind === 'pharmacy') assertPharmacyMayAdd(actor, input);
  const roles = await rolesToStore(deps, input);
  const now = deps.now();
  const { user, created } = await deps.db.transaction().execute(async (trx) => {
    let user = await findUserByEmail(trx, input.email);
    let created = false;
    if (!user) {
      const idp = input.addIdpByDefault ? await defaultProviderFor(trx, roles) : undefined;
      user = await insertUser(trx, {
        email: input.email,
        givenName: '',
        familyName: '',
        frontEnd: input.frontEnd,
        identityProviderId: idp?.id ?? null,
        now,
      });
      // Created meanwhile by someone else: use theirs.
      user ??= await findUserByEmail(trx, input.email);
      if (!user) throw new AppError('CONFLICT', 'The user could not be created; please try again');
      created = true;
      await audit(trx, deps, actor, {
        action: 'user.create',
        entityType: 'user',
        entityId: user.id,
        details: { frontEnd: input.frontEnd, identityProviderId: user.identityProviderId },
      });
    }
    for (const role of roles) {
      await upsertRole(trx, user.id, role, now);
      await audit(trx, deps, actor, {
        action: 'role.add',
        entityType: 'user',
        entityId: user.id,
        businessId: role.resourceType === 'business' ? role.resourceId : null,
        details: {
          role: role.name,
          resourceType: role.resourceType,
          resource: role.resourceId,
          accessLevels: role.accessLevels,
        },
      });
    }
    return { user, created };
  });
  if (created && !user.identityProviderId) await sendPasswordLink(deps, actor, site, user, 'invite');
  liveOf(deps).accessChanged(user.id);
  return { userId: user.id, created };
}

export async function removeRole(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'removeRole'>,
): Promise<Out<'removeRole'>> {
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
}

export async function editIdentityProvider(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'editIdentityProvider'>,
): Promise<Out<'editIdentityProvider'>> {
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
}
