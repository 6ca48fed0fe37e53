import { type } from 'arktype';
import { ContactVerification, Patient, PatientSignUp } from '../patient/patient.ts';
import { Id, NextToken, SearchText, stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { byId } from './method-builders.ts';
import { Ok } from './ok.ts';

/** Pages of sign-ups are 25 long; `nextToken` is an opaque keyset cursor on the sign-up id. */
export const signUpsPageSize = 25;

/**
 * Contact codes (SPEC §4 contact code check): 6 digits, sent when a sign-up gains an email or a mobile,
 * valid for 15 minutes, 5 tries each. After the 5th wrong try the code is spent: the check answers
 * `codeExpired` until a new code is sent (`update` with `resendCodes`). 5 tries of 10^6 codes give a
 * guesser 1 chance in 200,000 per code sent.
 */
export const signUpCodes = { digits: 6, ttlMinutes: 15, maxAttempts: 5 } as const;

/** An address line of a sign-up as sent; the server's rule (200 after trimming) reports longer ones. */
const Line = upTo(stringLimits.addressLine);

/** A sign-up form's address: any line left out is null. */
const SignUpAddress = type({
  line1: Line.or('null').default(null),
  line2: Line.or('null').default(null),
  line3: Line.or('null').default(null),
  postTown: Line.or('null').default(null),
  postcode: upTo(stringLimits.postcode).or('null').default(null),
});

/**
 * What staff (or a patient) fill in. The server checks it with SPEC §5's rules: names required, date of
 * birth YYYY-MM-DD and not in the future, email valid, UK mobile normalised to +447…, UK postcode.
 * Only the names must be given: the other fields may be left out (null, as a blank one is), so a
 * sign-up with just a name and an email is `{firstName, lastName, email}`.
 */
export const SignUpForm = type({
  firstName: upTo(stringLimits.name),
  lastName: upTo(stringLimits.name),
  dateOfBirth: upTo(stringLimits.code).or('null').default(null),
  email: upTo(stringLimits.email).or('null').default(null),
  mobileNumber: upTo(stringLimits.phone).or('null').default(null),
  address: SignUpAddress.or('null').default(null),
});
export type SignUpForm = typeof SignUpForm.infer;

/** Where a sign-up's contact checks stand; codes themselves are never sent back. */
export const SignUpVerification = ContactVerification.pick('emailCodeStatus', 'mobileCodeStatus').and({
  /** Tries left on the current code; 0 once spent or when no code was sent. */
  emailAttemptsLeft: 'number.integer >= 0',
  mobileAttemptsLeft: 'number.integer >= 0',
  /** When the current code stops working, or null when none is outstanding. */
  emailCodeExpires: 'number | null',
  mobileCodeExpires: 'number | null',
});
export type SignUpVerification = typeof SignUpVerification.infer;

const WithVerification = type({ signUp: PatientSignUp, verification: SignUpVerification });

/**
 * Online sign-ups of patients (SPEC §3, §4, §7). Status: `new` → `validated` once every contact given
 * is verified → `confirmed` when converted to a patient; `rejected` by staff (and back to `new`).
 * `past` lists are the confirmed and rejected ones.
 */
export const signUps = defineArea({
  create: {
    input: type({ businessId: Id, signUp: SignUpForm }),
    output: WithVerification,
    access: staff({ business: 'businessId' }),
    summary: 'Adds a sign-up and sends a code to its email and mobile.',
  },
  update: {
    input: type({
      id: Id,
      signUp: SignUpForm,
      /** `rejected` to turn a sign-up down, `new` to reopen it. */
      'status?': "'new' | 'rejected'",
      /** Send fresh codes for every contact not yet verified. A changed contact always gets one. */
      'resendCodes?': 'boolean',
    }),
    output: WithVerification,
    access: staff({ signUp: 'id' }),
    summary: 'Changes a sign-up that is not confirmed; a changed email or mobile must be verified again.',
  },
  delete: byId({
    output: Ok,
    access: staff({ signUp: 'id' }),
    summary: 'Removes a sign-up that has not been converted.',
  }),
  get: byId({
    output: WithVerification,
    access: staff({ signUp: 'id' }),
    summary: 'One sign-up with where its contact checks stand; the read is audited.',
  }),
  list: {
    input: type({
      businessId: Id,
      /** Case-insensitive prefix of first name, last name, email or mobile. */
      'filter?': SearchText,
      'nextToken?': NextToken,
      /** true: confirmed and rejected ones; false or absent: new and validated ones. */
      'past?': 'boolean',
    }),
    output: type({ signUps: PatientSignUp.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId' }),
    summary: "A business's sign-ups, oldest first, 25 a page; each page read is audited.",
  },
  count: {
    input: type({ businessId: Id, 'past?': 'boolean' }),
    output: type({ count: 'number.integer >= 0' }),
    access: staff({ business: 'businessId' }),
    summary: 'How many sign-ups are waiting (new or validated), or past with `past`.',
  },
  convert: {
    input: type({ id: Id, displayId: upTo(stringLimits.patientId) }),
    output: type({ patient: Patient, signUp: PatientSignUp }),
    access: staff({ signUp: 'id' }),
    summary: "Makes a patient of a sign-up under the given display id (the business's rules apply).",
  },
  getBusinessId: byId({
    output: type({ businessId: 'string' }),
    access: staff({ signUp: 'id' }),
    summary: 'The business a sign-up belongs to (for links that carry only the sign-up id).',
  }),
  verifyContactMethods: {
    input: type({
      'emailCode?': upTo(stringLimits.code).or('null'),
      'mobileCode?': upTo(stringLimits.code).or('null'),
      id: Id,
    }),
    output: WithVerification,
    access: staff({ signUp: 'id' }),
    summary: 'Checks the codes given: verified, codeIncorrect (tries left), codeExpired (late or tries spent).',
  },
});
