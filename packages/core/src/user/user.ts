import { type } from 'arktype';
import { loginFailureReasons } from '../errors/messages.ts';
import { Id, stamps, Timestamp } from '../stamps.ts';
import { AccessLevel, FrontEnd } from './roles.ts';

/** A person who signs in (SPEC §3). `name` is the display name, usually given + family. */
export const User = type({
  id: Id,
  email: 'string',
  givenName: 'string',
  familyName: 'string',
  name: 'string',
  ...stamps,
  accessLevels: AccessLevel.array(),
});
export type User = typeof User.infer;

/** A role held by a user: `resource` is a business or group id, or null for Support and Developer. */
export const Role = type({
  name: 'string',
  resource: 'string | null',
  accessLevels: AccessLevel.array(),
  description: 'string',
});
export type Role = typeof Role.infer;

/** A signed-in session as the client sees it. */
export const Session = type({
  expires: Timestamp,
  scopes: type({ name: 'string' }).array(),
  user: User,
  loginMessage: 'string | null',
});
export type Session = typeof Session.infer;

/** The answer to auth/login: a session's parts on success, else a reason. */
export const LoginResult = type({
  ok: 'boolean',
  reason: type.enumerated(...loginFailureReasons).or('null'),
  result: type({ expires: Timestamp, scopes: 'string[]', user: User }).or('null'),
});
export type LoginResult = typeof LoginResult.infer;

export const IdentityProviderType = type("'OIDC' | 'SAML'");
export type IdentityProviderType = typeof IdentityProviderType.infer;

/** A single-sign-on provider (SPEC §3). */
export const IdentityProvider = type({
  id: Id,
  name: 'string',
  type: IdentityProviderType,
  ...stamps,
  configuration: { clientId: 'string', clientSecret: 'string', issuerUrl: 'string' },
});
export type IdentityProvider = typeof IdentityProvider.infer;

/** The payload of auth/addRoles's roles (SPEC §3 "Add-role payload"). */
export const AddRolePayload = type({
  email: 'string',
  frontEnd: FrontEnd,
  resourceId: 'string | null',
  resourceType: "'business' | 'group' | null",
  roles: type({
    description: 'string',
    name: 'string',
    resource: 'string | null',
    accessLevels: AccessLevel.array(),
  }).array(),
});
export type AddRolePayload = typeof AddRolePayload.infer;
