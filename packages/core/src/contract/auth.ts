import { type } from 'arktype';
import { Password } from '../user/password.ts';
import { FormEmail, Required } from '../validation/general.ts';
import { FreeText, Id, IdOrNull, stringLimits, upTo } from '../validation/string-limits.ts';
import { accountMethods } from './account.ts';
import { cliSignInMethods } from './cli-sign-in.ts';
import { defineArea, publicAccess, signedInSelf, staff, supportOnly } from './define.ts';
import { activateDeviceAuth } from './device-auth.ts';
import { withoutInput } from './method-builders.ts';
import { Ok } from './ok.ts';
import { patientAuthMethods } from './patient-auth.ts';
import { roleInvitationMethods } from './role-invitations.ts';
import { SecondFactorAnswer, SecondFactorMethod, secondFactorMethods } from './second-factor.ts';

/*
 * Sign-in, sessions, password reset and roles (SPEC §2 auth routes, §4 login/reset, §6, §7 auth).
 *
 * Credential outcomes of `login` are answers, not errors: a wrong password, a forced reset or a
 * locked account is a 200 `{ ok: false, reason, message }` (SPEC §3 "Login result: ok, reason,
 * result"). Errors (4xx) are kept for bad input (400), a refused origin or scope (403) and the like.
 */

// --- input rules: core's SPEC §5 rules, under the names this contract has used since it landed -----

/** The forms' email ('Enter a valid email address', EXPECTED_EMAIL), trimmed. */
export const FormEmailInput = FormEmail;

/** SPEC §5 required ('Please enter a value', REQUIRED): some text other than blanks. */
export const RequiredText = Required;

/** A person's given or family name: required, at most 100 characters. */
export const RequiredName = upTo(stringLimits.name, Required);

/** The password typed at sign-in: required, at most 1000 characters, so nobody can make the server hash megabytes. */
export const PasswordInput = upTo(stringLimits.password, Required);

/**
 * SPEC §5 password for register/reset: at least 12 characters ('Please enter at least 12
 * characters'); at most 1000, so nobody can make the server hash megabytes.
 */
export const NewPasswordInput = upTo(stringLimits.password, Password);

// --- entities -------------------------------------------------------------------------------------

/** SPEC §3 User. Timestamps are ms. `accessLevels`: of the role the list was asked for, else of all roles. */
export const User = type({
  id: 'string',
  email: 'string',
  givenName: 'string',
  familyName: 'string',
  /** 'Given Family', trimmed; the email when both are blank. */
  name: 'string',
  created: 'number',
  updated: 'number',
  accessLevels: 'string[]',
});
export type User = typeof User.infer;

/** Every role name of the data model (SPEC §6). */
export const RoleName = type(
  "'Support' | 'Business' | 'Group' | 'Developer' | 'business' | 'developer' | 'group' | 'internal' | 'machine' | 'patient-mobile' | 'support' | 'user'",
);
export type RoleName = typeof RoleName.infer;

/** The roles support staff can add (SPEC §6 Add role). */
export const AddableRoleName = type("'Support' | 'Business' | 'Group' | 'Developer'");
export type AddableRoleName = typeof AddableRoleName.infer;

export const AccessLevel = type("'Admin'");
export type AccessLevel = typeof AccessLevel.infer;

export const ResourceType = type("'business' | 'group'");
export type ResourceType = typeof ResourceType.infer;

export const FrontEnd = type("'support' | 'pharmacy'");
export type FrontEnd = typeof FrontEnd.infer;

/**
 * SPEC §3 Role. `resource` is the business or group id (null for Support/Developer, shown '*');
 * `resourceName` is null when the resource can no longer be resolved (shown 'restricted').
 */
export const Role = type({
  name: RoleName,
  resource: 'string | null',
  resourceType: "'business' | 'group' | null",
  'resourceName?': 'string | null',
  accessLevels: 'string[]',
  description: 'string',
});
export type Role = typeof Role.infer;

/** SPEC §3 Session / login result. `scopes` holds 'support' for holders of a Support role. */
export const SessionInfo = type({
  expires: 'number',
  scopes: 'string[]',
  user: User,
  'loginMessage?': 'string',
  /** Policy wants a second factor and the user has none: this session may only set one up. */
  'secondFactorSetupRequired?': 'boolean',
});
export type SessionInfo = typeof SessionInfo.infer;

export const LoginReason = type(
  "'InvalidCredentials' | 'ForceReset' | 'TooManyAttempts' | 'AccountDisabled' | 'SecondFactorRequired'",
);
export type LoginReason = typeof LoginReason.infer;

/** A role in an Add-role request. Business and Group need a resource (here or the request's resourceId). */
export const RoleToAdd = type({
  name: AddableRoleName,
  /** Ignored: the server writes the SPEC §6 description from the role and resource name. */
  'description?': FreeText,
  'resource?': IdOrNull,
  accessLevels: AccessLevel.array(),
});
export type RoleToAdd = typeof RoleToAdd.infer;

/** A sign-in's answer (login, verifySecondFactor). */
const LoginAnswer = type({
  ok: 'boolean',
  'reason?': LoginReason,
  'message?': 'string',
  'result?': SessionInfo,
  /** With reason SecondFactorRequired: what the user can answer with. */
  'secondFactor?': { methods: SecondFactorMethod.array() },
});

/**
 * What Add role did: `added` (support staff, or a pharmacy Admin's colleague already in reach: `created`
 * says whether the account is new), or `invited` (a pharmacy Admin adding anyone else: the person accepts
 * the role after signing in; the same answer whether the email had an account, docs/decisions/auth.md).
 */
export const AddRolesOutcome = type({ outcome: "'added'", userId: 'string', created: 'boolean' }).or({
  outcome: "'invited'",
});
export type AddRolesOutcome = typeof AddRolesOutcome.infer;

export const auth = defineArea({
  ...accountMethods,
  activateDeviceAuth,
  ...cliSignInMethods,
  ...patientAuthMethods,
  ...roleInvitationMethods,
  ...secondFactorMethods,
  config: withoutInput({
    output: type({ allowRegistration: 'boolean', productName: 'string' }),
    access: publicAccess,
    summary: 'What the login page needs to know: whether to offer Register, and the product name.',
  }),
  login: {
    input: type({ username: FormEmailInput, password: PasswordInput }),
    output: LoginAnswer,
    access: publicAccess,
    summary:
      'Signs in with email and password; sets the session cookie and returns its token-free result. Credential outcomes answer 200 with ok:false and a reason; SecondFactorRequired sets a cookie that can only finish the sign-in (verifySecondFactor).',
  },
  verifySecondFactor: {
    input: SecondFactorAnswer,
    output: LoginAnswer,
    access: signedInSelf,
    summary:
      "The second step of a sign-in: a code from the user's authenticator app, a recovery code (each works once) or a passkey's answer to beginPasskeySignIn. Counts towards the login limits as a password does; on success the session cookie is replaced by a full one.",
  },
  logout: withoutInput({
    output: Ok,
    access: publicAccess,
    summary: 'Ends the current session on the server and clears its cookie; harmless without one.',
  }),
  session: withoutInput({
    output: SessionInfo,
    access: signedInSelf,
    summary: 'The current session (401 when there is none or it has timed out).',
  }),
  register: {
    input: type({ email: FormEmailInput, givenName: RequiredName, familyName: RequiredName, frontEnd: FrontEnd }),
    output: Ok,
    access: publicAccess,
    summary:
      'Self-registration when configuration allows it (403 otherwise): always answers ok and emails a link to set a password.',
  },
  beginResetPassword: {
    input: type({ email: FormEmailInput, frontEnd: FrontEnd }),
    output: Ok,
    access: publicAccess,
    summary: 'Emails a reset link when the account exists; the same answer either way.',
  },
  completeResetPassword: {
    input: type({ password: NewPasswordInput, token: upTo(stringLimits.token, type('string > 0')) }),
    output: Ok,
    access: publicAccess,
    summary: 'Sets a new password with a reset token (single use, 1 hour); ends every session of the user.',
  },
  getIdentityProviderAuthUrl: {
    input: type({ username: FormEmailInput, returnUrl: upTo(stringLimits.url) }),
    output: type({ authUrl: 'string | null' }),
    access: publicAccess,
    summary: "The single-sign-on URL of the user's identity provider, or null when they sign in with a password.",
  },
  addRoles: {
    input: type({
      addIdpByDefault: 'boolean',
      email: FormEmailInput,
      frontEnd: FrontEnd,
      'resourceId?': IdOrNull,
      'resourceType?': "'business' | 'group' | null",
      roles: RoleToAdd.array().atLeastLength(1),
    }),
    output: AddRolesOutcome,
    access: staff('roles', true),
    summary:
      "Adds roles to the user of an email, creating the user (no password, must set one via reset) when new. Pharmacy Admins: Business and Group roles on what they administer, front end pharmacy, no single sign-on by default; anyone not already holding a role there is invited (outcome 'invited', the same answer for a new email as for an existing one) and gets the role on accepting.",
  },
  removeRole: {
    input: type({ roleName: RoleName, roleResource: IdOrNull, userId: Id }),
    output: Ok,
    access: staff('roles', true),
    summary:
      'Removes one role of a user; nobody removes their own Support role. Pharmacy Admins: a Business or Group role on what they administer, not their own.',
  },
  editIdentityProvider: {
    input: type({ email: FormEmailInput, identityProviderId: IdOrNull, frontEnd: FrontEnd }),
    output: Ok,
    access: supportOnly,
    summary: "Sets or clears the user's identity provider (single sign-on).",
  },
});
