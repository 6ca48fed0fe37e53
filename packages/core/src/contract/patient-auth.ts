import { type } from 'arktype';
import { DateOfBirth, Required } from '../validation/general.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { type Access, publicAccess } from './define.ts';

/*
 * The patient session (issue 19): a patient proves who they are for the order their link names, by date
 * of birth or by a code texted to the order's mobile, and gets a session of their own (its own cookie,
 * not the staff session's) that reaches that patient and their orders only. docs/DECISIONS.md,
 * "Patient session (issue 19)".
 */

/** The numbers of the patient session and its checks, stated in docs/SECURITY.md. */
export const patientAuthPolicy = {
  /** A session unused this long has timed out; each call moves it on. */
  idleMinutes: 30,
  /** A session never outlives this. */
  absoluteHours: 24,
  /** Wrong dates of birth and codes together, per order, that lock its link. */
  maxWrongTries: 5,
  /** Tries are counted over this window, and a locked link stays locked this long. */
  lockMinutes: 15,
  codeDigits: 6,
  codeTtlMinutes: 10,
  /** Between two codes texted for one order. */
  resendAfterSeconds: 60,
  /** Codes texted for one order per hour. */
  maxCodesPerHour: 5,
} as const;

/** Only the patient of a session, on its own record or orders. */
export const patientOnly = <const S extends Access['scope']>(scope: S) =>
  ({ actors: ['patient'], scope }) as { readonly actors: readonly ['patient']; readonly scope: S };

/** What the patient page knows of its session: when it ends, and the name to greet the patient by. */
export const PatientSessionInfo = type({
  /** The absolute end (ms). */
  expires: 'number',
  /** When it times out if unused (ms). */
  idleExpires: 'number',
  givenName: 'string',
});
export type PatientSessionInfo = typeof PatientSessionInfo.infer;

export const patientAuthMethods = {
  verifyPatient: {
    input: type({ orderId: Id, dateOfBirth: DateOfBirth }),
    output: PatientSessionInfo,
    access: publicAccess,
    summary:
      "Starts a patient session for the order's patient when the date of birth matches the one on record (sets the patient cookie). A wrong date, or none on record, is a 400 (IDENTITY_NOT_CONFIRMED) that counts towards the link's lock; unknown order 404.",
  },
  verifySms: {
    input: type({ orderId: Id }),
    output: type({ sent: 'true', mobileEnding: 'string', expiresInMinutes: 'number' }),
    access: publicAccess,
    summary: "Texts a 6-digit code (10 minutes) to the order's patient mobile; one a minute, five an hour per order.",
  },
  verifySmsCode: {
    input: type({ orderId: Id, code: upTo(stringLimits.code, Required) }),
    output: PatientSessionInfo,
    access: publicAccess,
    summary:
      "Starts a patient session with the code texted by verifySms (single use). A wrong or late code is a 400 (IDENTITY_NOT_CONFIRMED) that counts towards the link's lock.",
  },
  patientSession: {
    input: type({}),
    output: PatientSessionInfo,
    access: patientOnly('self'),
    summary: 'The current patient session (401 when there is none or it has timed out).',
  },
  endPatientSession: {
    input: type({}),
    output: type({ ok: 'true' }),
    access: publicAccess,
    summary: 'Ends the patient session and clears its cookie; harmless without one.',
  },
} as const;
