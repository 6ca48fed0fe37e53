import { type } from 'arktype';
import { Id, IdOrNull, NextToken, SearchText } from '../validation/string-limits.ts';
import { RequiredName, Role, RoleName, User } from './auth.ts';
import { defineArea, signedInSelf, staff } from './define.ts';

/** The identity provider of a user as the user-details block shows it (SPEC §2). */
export const IdentityProviderRef = type({ id: 'string', name: 'string' });
export type IdentityProviderRef = typeof IdentityProviderRef.infer;

/** Pages of users are 25 long; `nextToken` is an opaque keyset cursor, null on the last page. */
export const usersPageSize = 25;

export const users = defineArea({
  getUsersByRole: {
    input: type({
      roleName: RoleName,
      /** The business or group id for Business/Group roles; absent or null for any resource. */
      'roleResource?': IdOrNull,
      /** Case-insensitive prefix of email, given name, family name or full name. */
      'filterText?': SearchText,
      'nextToken?': NextToken,
    }),
    output: type({ users: User.array(), nextToken: 'string | null' }),
    access: staff('roles'),
    summary:
      'Users holding a role (on a resource), filtered by text, ordered by email, 25 a page. Pharmacy users: the Business or Group role of a business or group they reach.',
  },
  getUser: {
    input: type({ id: Id }),
    output: type({ user: User, roles: Role.array(), identityProvider: IdentityProviderRef.or('null') }),
    access: staff('roles'),
    summary:
      'A user with their roles and identity provider (support staff: anyone; others: themselves; pharmacy Admins: the holders of roles on what they administer, with only those roles).',
  },
  updateUser: {
    input: type({ id: Id, givenName: RequiredName, familyName: RequiredName }),
    output: type({ user: User }),
    access: signedInSelf,
    summary: "Changes a user's names (support staff: anyone; others: themselves, the complete-profile screen).",
  },
});
