import { type } from 'arktype';
import { UkMobile } from '../contact/uk-mobile.ts';
import { DateOfBirth, Required } from '../validation/general.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { type Access, publicAccess } from './define.ts';
import { byOrderId, withoutInput } from './method-builders.ts';
import { Ok } from './ok.ts';

/*
 * The patient session: a patient proves who they are for the order their link names, by date
 * of birth or by a code texted to the order's mobile, and gets a session of their own (its own cookie,
 * not the staff session's) that reaches that patient and their orders only. docs/decisions/patients.md,
 * "Patient session".
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
  /** Mobiles a patient may add besides the one on record. */
  maxAddedMobiles: 3,
  /** Wrong tries at an added mobile's code before it must be sent again. */
  maxMobileCodeTries: 5,
  /**
   * Per client address, across every order (beside each order's own lock): wrong dates of birth and
   * codes, and unknown orders, within `addressTriesMinutes`; then one more each 30 seconds.
   */
  addressWrongTries: 30,
  addressTriesMinutes: 15,
  /** Per client address, across every order: code texts asked for (and unknown orders) an hour. */
  addressCodesPerHour: 10,
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

/** A mobile a patient session may use: the one on record (the pharmacy's to change) or one the patient added. */
export const PatientMobile = type({
  mobileNumber: 'string',
  onRecord: 'boolean',
  /** Added ones count only once the code texted to them was entered. */
  verified: 'boolean',
});
export type PatientMobile = typeof PatientMobile.infer;

const PatientMobiles = type({ mobiles: PatientMobile.array() });

export const patientAuthMethods = {
  verifyPatient: {
    input: type({ orderId: Id, dateOfBirth: DateOfBirth }),
    output: PatientSessionInfo,
    access: publicAccess,
    summary:
      "Starts a patient session for the order's patient when the date of birth matches the one on record (sets the patient cookie). A wrong date, or none on record, is a 400 (IDENTITY_NOT_CONFIRMED) that counts towards the link's lock; unknown order 404.",
  },
  patientSignInOptions: byOrderId({
    output: type({ nhsLogin: 'boolean' }),
    access: publicAccess,
    summary:
      "The ways the order's identity check offers besides date of birth and text: NHS login when the order's business switched it on and the server has it configured (false for an unknown order).",
  }),
  startNhsLogin: byOrderId({
    output: type({ authUrl: 'string' }),
    access: publicAccess,
    summary:
      'Starts NHS login for the order (state, nonce, PKCE, a one-time browser cookie): the address to send the browser to. 409 when NHS login is not offered for the order, 429 while its link is locked, 404 unknown order.',
  }),
  verifySms: byOrderId({
    output: type({ sent: 'true', mobileEndings: 'string[]', expiresInMinutes: 'number' }),
    access: publicAccess,
    summary:
      "Texts a 6-digit code (10 minutes) to the order's patient's mobile on record and the mobiles they added and verified; one a minute, five an hour per order. Answers each mobile's last 3 digits.",
  }),
  verifySmsCode: {
    input: type({ orderId: Id, code: upTo(stringLimits.code, Required) }),
    output: PatientSessionInfo,
    access: publicAccess,
    summary:
      "Starts a patient session with the code texted by verifySms (single use). A wrong or late code is a 400 (IDENTITY_NOT_CONFIRMED) that counts towards the link's lock.",
  },
  patientSession: withoutInput({
    output: PatientSessionInfo,
    access: patientOnly('self'),
    summary: 'The current patient session (401 when there is none or it has timed out).',
  }),
  listPatientMobile: withoutInput({
    output: PatientMobiles,
    access: patientOnly('self'),
    summary: "The mobiles the signed-in patient's link codes go to: the one on record, then those they added.",
  }),
  addPatientMobile: {
    input: type({ mobileNumber: UkMobile, 'code?': upTo(stringLimits.code, Required) }),
    output: PatientMobiles.and({ added: 'boolean' }),
    access: patientOnly('self'),
    summary:
      'Adds a mobile for the signed-in patient: without a code, texts one to it (10 minutes); with the code, adds it (verified). At most 3 added mobiles.',
  },
  removePatientMobile: {
    input: type({ mobileNumber: UkMobile }),
    output: PatientMobiles,
    access: patientOnly('self'),
    summary: "Removes a mobile the patient added (the one on record is the pharmacy's to change: 409).",
  },
  endPatientSession: withoutInput({
    output: Ok,
    access: publicAccess,
    summary: 'Ends the patient session and clears its cookie; harmless without one.',
  }),
} as const;
