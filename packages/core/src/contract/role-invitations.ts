import { type } from 'arktype';
import { Id } from '../validation/string-limits.ts';
import { type Method, signedInSelf, staff } from './define.ts';
import { byId, withoutInput } from './method-builders.ts';
import { Ok } from './ok.ts';

/*
 * Role invitations (docs/decisions/auth.md "Role invitations"). A pharmacy Admin who adds
 * someone not already among their users invites them: the role waits until the person, signed in,
 * accepts it. The invitee sees and answers their own; the business's or group's Admins see and cancel
 * theirs. An invitation never shows the inviting Admin more of the person than the email they typed.
 */

/** How long an invitation can be accepted. */
export const roleInvitationDays = 14;

/** What each side sees of a pending invitation: the role offered, who invited, and when it was made and ends. */
const PendingInvitation = {
  id: 'string',
  roleName: "'Business' | 'Group'",
  accessLevels: 'string[]',
  /** The inviting Admin's name (their email when they have none), null when that account is gone. */
  invitedBy: 'string | null',
  created: 'number',
  expires: 'number',
} as const;

/** A pending invitation as its invitee sees it. */
export const MyRoleInvitation = type({
  ...PendingInvitation,
  resourceType: "'business' | 'group'",
  resourceId: 'string',
  /** Null when the business or group can no longer be resolved. */
  resourceName: 'string | null',
  description: 'string',
});
export type MyRoleInvitation = typeof MyRoleInvitation.infer;

/** A pending invitation as the business's or group's Admins see it: the email they typed, no more. */
export const RoleInvitation = type({ ...PendingInvitation, email: 'string' });
export type RoleInvitation = typeof RoleInvitation.infer;

export const roleInvitationMethods = {
  listMyInvitations: withoutInput({
    output: type({ invitations: MyRoleInvitation.array() }),
    access: signedInSelf,
    summary: "The signed-in user's pending role invitations (not expired), oldest first.",
  }),
  acceptInvitation: byId({
    output: Ok,
    access: signedInSelf,
    summary:
      'Accepts one of your own invitations: its role is added. Refused (409) when expired, when you hold a Support or Developer role, or when your identity provider would no longer let you sign in.',
  }),
  declineInvitation: byId({
    output: Ok,
    access: signedInSelf,
    summary: 'Declines (deletes) one of your own invitations.',
  }),
  listInvitations: {
    input: type({ roleName: "'Business' | 'Group'", roleResource: Id }),
    output: type({ invitations: RoleInvitation.array() }),
    access: staff('roles', true),
    summary: "A business's or group's pending invitations (not expired), for its Admins and support staff.",
  },
  cancelInvitation: byId({
    output: Ok,
    access: staff('roles', true),
    summary: 'Cancels a pending invitation of a business or group the caller administers.',
  }),
} as const satisfies Record<string, Method>;
