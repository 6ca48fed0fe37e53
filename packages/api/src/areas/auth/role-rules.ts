import { AppError } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import {
  businessIdsOfGroup,
  findIdentityProvider,
  identityProvidersOldestFirst,
  type ProviderRecord,
  resourceName,
  userRoleRefs,
} from './repository.ts';

/*
 * The rules every way of giving a user a role keeps: a business's or group's identity provider vouches
 * only for that business's or group's people, and support staff and developers get their roles from
 * support staff alone (a pharmacy Admin could otherwise take over another pharmacy's user).
 */

type Db = AppDeps['db'];
type RoleResource = { resourceType: string | null; resourceId: string | null };

/**
 * Whether a provider may be a user's: a global one always; one tied to a business only when
 * every role is on that business; one tied to a group only when every role is on the group or one of its
 * businesses, and at least one role is there (a Support or Developer role, or another business, is
 * outside). The same rule sign-in applies (sso/repository.ts userHasRoleOutside). Null when it may, else why not.
 */
export async function providerRefusal(db: Db, idp: ProviderRecord, roles: RoleResource[]): Promise<string | null> {
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
export async function defaultProviderFor(db: Db, roles: RoleResource[]): Promise<ProviderRecord> {
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
 * Why a user may not be given these roles, in words, or null when they may: they hold a Support or
 * Developer role (only support staff change those users' roles), or their identity provider would no
 * longer let them sign in with the new roles beside their own.
 */
export async function roleGrantRefusal(
  db: Db,
  user: { id: string; identityProviderId: string | null },
  roles: RoleResource[],
): Promise<string | null> {
  const held = await userRoleRefs(db, user.id);
  if (held.some((r) => r.name === 'Support' || r.name === 'Developer')) {
    return 'Support staff and developers are given roles by support staff only: this invitation cannot be accepted';
  }
  if (user.identityProviderId === null) return null;
  const idp = await findIdentityProvider(db, user.identityProviderId);
  if (!idp) return null;
  return providerRefusal(db, idp, [...held, ...roles]);
}
