import { type } from 'arktype';
import { Password } from '../user/password.ts';
import { Required } from '../validation/general.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { type Method, signedInSelf, staff } from './define.ts';
import { byUserId } from './method-builders.ts';
import { Ok } from './ok.ts';

/*
 * The user's own account (issue 37 §2, docs/decisions/auth.md "The user's own account"): change the
 * password while signed in, see and end one's sessions; support sees and ends anyone's; an account
 * disabled for not being used is enabled again by support or an Admin of a business the user works for.
 */

/** One live session of a user, as their account page lists it. */
export const StaffSession = type({
  id: 'string',
  /** Readable, from the user agent: "Chrome on Windows". */
  device: 'string',
  userAgent: 'string | null',
  /** The address it signed in from. */
  ip: 'string | null',
  /** When it signed in. */
  created: 'number',
  /** Its last call (to the minute: activity is written at most once a minute). */
  lastSeen: 'number',
  /** The session this list was asked from. */
  current: 'boolean',
});
export type StaffSession = typeof StaffSession.infer;

/** Whether an account can sign in, as a user's page shows it. */
export const AccountStatus = type({
  /** When the user last signed in; null when never. */
  lastSignIn: 'number | null',
  /** When the account was disabled; null while it is enabled. */
  disabledAt: 'number | null',
  disabledReason: "'inactive' | null",
});
export type AccountStatus = typeof AccountStatus.infer;

export const accountMethods = {
  changePassword: {
    input: type({
      currentPassword: upTo(stringLimits.password, Required),
      /** SPEC §5: at least 12 characters. */
      newPassword: upTo(stringLimits.password, Password),
    }),
    output: type({ ok: 'true', endedSessions: 'number' }),
    access: signedInSelf,
    summary:
      "Changes the signed-in user's password: the current one is checked under the sign-in limits (a wrong one is a 400 on currentPassword and counts as a failed login); every other session of the user ends, this one stays.",
  },
  listSessions: {
    input: type({ 'userId?': Id }),
    output: type({ sessions: StaffSession.array() }),
    access: signedInSelf,
    summary:
      "The live sessions of a user (device, address, signed in, last seen), newest first: one's own; support staff: anyone's.",
  },
  endSession: {
    input: type({ sessionId: Id }),
    output: Ok,
    access: signedInSelf,
    summary:
      "Ends one session at once (every api process forgets it): one's own sessions; support staff: anyone's, audited as who ended whose.",
  },
  endOtherSessions: {
    input: type({ 'userId?': Id }),
    output: type({ ok: 'true', ended: 'number' }),
    access: signedInSelf,
    summary:
      "Ends every session of the user but the one calling: one's own; support staff may name another user (then all of theirs end).",
  },
  getAccountStatus: byUserId({
    output: AccountStatus,
    access: staff('roles', true),
    summary:
      "Whether a user's account is enabled and when they last signed in (support staff: anyone; pharmacy Admins: the holders of roles on what they administer).",
  }),
  enableUser: byUserId({
    output: AccountStatus,
    access: staff('roles', true),
    summary:
      'Enables an account disabled for not being used (support staff: anyone; pharmacy Admins: a holder of a Business or Group role on what they administer), audited; harmless on an enabled one.',
  }),
} satisfies Record<string, Method>;
