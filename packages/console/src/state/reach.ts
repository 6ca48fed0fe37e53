import type { Role } from '@medlocker/core';
import { rpc } from '../api/client.ts';
import { useQuery } from '../api/queries.ts';
import { useCurrentUser, useHasSupportScope } from './session.ts';

/** A business (with the group it belongs to) or a group, as the console's pages hold them. */
export type Resource = { kind: 'business'; id: string; groupId: string | null } | { kind: 'group'; id: string };

/** The role its people hold on a resource: Business on a business, Group on a group. */
export const roleNameOf = (resource: Resource): 'Business' | 'Group' =>
  resource.kind === 'business' ? 'Business' : 'Group';

/**
 * Whether a pharmacy user's own roles give the Admin level on a business or group (SPEC §6), as the
 * server decides it (api access/enforce.ts): a Business role with Admin on the business, or a Group
 * role with Admin on the group (which covers the group's businesses). Only decides what the console
 * offers; the server checks every call again.
 */
export function administers(roles: readonly Role[], target: Resource): boolean {
  return roles.some(
    (role) =>
      role.accessLevels.includes('Admin') &&
      ((role.name === 'Business' && target.kind === 'business' && role.resource === target.id) ||
        (role.name === 'Group' &&
          role.resource !== null &&
          role.resource === (target.kind === 'group' ? target.id : target.groupId))),
  );
}

/**
 * Whether the signed-in user may manage `target` (its users, its Admin-only pages): support staff
 * always; pharmacy users when {@link administers} says so, from their own roles (read once, cached
 * with the user's details). Undefined while those roles load.
 */
export function useAdministers(target: Resource): boolean | undefined {
  const support = useHasSupportScope();
  const me = useCurrentUser();
  const own = useQuery(
    (signal) => (support || !me ? Promise.resolve(null) : rpc('users', 'getUser', { id: me.id }, { signal })),
    ['users', 'getUser', me?.id ?? '', support ? 'support' : 'pharmacy'],
  );
  if (support) return true;
  if (!own.data) return own.error ? false : undefined;
  return administers(own.data.roles, target);
}
