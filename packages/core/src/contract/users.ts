import { type } from 'arktype';
import { Patient } from '../patient/patient.ts';
import { Id, IdOrNull, SearchText, stringLimits, upTo } from '../validation/string-limits.ts';
import { RequiredName, Role, RoleName, User } from './auth.ts';
import { defineArea, signedInSelf, staff } from './define.ts';
import { byId, byPatientId } from './method-builders.ts';
import { Paging } from './paging.ts';

/** The identity provider of a user as the user-details block shows it (SPEC §2). */
export const IdentityProviderRef = type({ id: 'string', name: 'string' });
export type IdentityProviderRef = typeof IdentityProviderRef.infer;

/**
 * WhatsApp opt-in codes: 6 digits from the CSPRNG, valid 15 minutes, 5 wrong tries spend one; at most one
 * new code a minute and 5 a day per patient (docs/decisions/messaging.md, WhatsApp opt-in).
 */
export const whatsAppOptInCodes = {
  digits: 6,
  ttlMinutes: 15,
  maxAttempts: 5,
  perMinute: 1,
  perDay: 5,
} as const;

/** What `addWhatsAppOptIn` answers: where the code went (masked, as staff read it out) and until when it works. */
export const WhatsAppCodeSent = type({ sentTo: 'string', expiresAt: 'number' });

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
      ...Paging,
    }),
    output: type({ users: User.array(), nextToken: 'string | null' }),
    access: staff('roles'),
    summary:
      'Users holding a role (on a resource), filtered by text, ordered by email, 25 a page. Pharmacy users: the Business or Group role of a business or group they reach.',
  },
  getUser: byId({
    output: type({ user: User, roles: Role.array(), identityProvider: IdentityProviderRef.or('null') }),
    access: staff('roles'),
    summary:
      'A user with their roles and identity provider (support staff: anyone; others: themselves; pharmacy Admins: the holders of roles on what they administer, with only those roles).',
  }),
  updateUser: {
    input: type({ id: Id, givenName: RequiredName, familyName: RequiredName }),
    output: type({ user: User }),
    access: signedInSelf,
    summary: "Changes a user's names (support staff: anyone; others: themselves, the complete-profile screen).",
  },
  addWhatsAppOptIn: byPatientId({
    output: WhatsAppCodeSent,
    access: staff({ patient: 'patientId' }),
    summary:
      'Sends the patient a 6-digit code by WhatsApp on their mobile, to opt them in to WhatsApp messages; the business must enable WhatsApp (409). A new code replaces the old; at most one a minute and 5 a day (429).',
  }),
  verifyWhatsAppOptInMessage: {
    input: type({ patientId: Id, code: upTo(stringLimits.code) }),
    output: type({ patient: Patient }),
    access: staff({ patient: 'patientId' }),
    summary:
      'Checks the code the patient read back: right → opted in to WhatsApp on that number; wrong or expired → 400 on code (5 wrong tries spend it).',
  },
  removeWhatsAppOptIn: byPatientId({
    output: type({ patient: Patient }),
    access: staff({ patient: 'patientId' }),
    summary: 'Opts the patient out of WhatsApp: their messages go by SMS or email again.',
  }),
});
