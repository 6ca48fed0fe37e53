import { type } from 'arktype';
import { LanguageChoice, PatientLanguage } from '../i18n/language.ts';
import { SignUpStatus } from '../patient/patient.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, publicAccess } from './define.ts';
import { withoutInput } from './method-builders.ts';
import { SignUpForm, SignUpVerification } from './sign-ups.ts';

/*
 * Online sign-ups on the patient page (`/signup/{businessId}`). Public: anyone may start one
 * with a business that has `onlineSignups.enabled`. Starting one hands the browser an HttpOnly cookie
 * whose token is the only proof that reaches that one sign-up: `get`, `verify` and `resendCodes` take
 * no id, so a caller can never name someone else's. docs/decisions/patients.md, "Online sign-ups".
 */

/** The limits on online sign-ups (each code sent can cost an SMS), stated in docs/SECURITY.md. */
export const onlineSignUpLimits = {
  /** Calls that send codes (a new sign-up or a resend) per client address (an IPv6 /64 counts as one). */
  sendsPerAddress: 10,
  sendsPerAddressPerMinutes: 60,
  /** The same per business, whoever asks: a ceiling on what a flood can cost one pharmacy. */
  sendsPerBusiness: 60,
  sendsPerBusinessPerMinutes: 60,
  /**
   * Codes sent to one email address or mobile number, over every sign-up and business, whoever asks:
   * the form must not be a way to pester a stranger's phone or inbox from many addresses.
   */
  sendsPerContact: 5,
  sendsPerContactPerMinutes: 60,
  /** Codes sent for one sign-up, the first included; then the patient must start again or call the pharmacy. */
  sendsPerSignUp: 5,
  /** Between two sends for one sign-up. */
  resendAfterSeconds: 60,
  /** The sign-up cookie lasts this long; after it the browser no longer reaches the sign-up. */
  accessHours: 24,
} as const;

/** The pharmacy a sign-up page is for; `patientLanguage` is the language the page opens in (bilingual: Welsh). */
export const SignUpBusiness = type({ businessId: Id, name: 'string', patientLanguage: PatientLanguage });
export type SignUpBusiness = typeof SignUpBusiness.infer;

/**
 * The one sign-up of this browser, as its patient sees it: where its checks stand and, masked, where
 * the codes went (`07••• •••123`, `j•••@example.com`). Never another field of the sign-up.
 */
export const OnlineSignUp = type({
  businessId: Id,
  businessName: 'string',
  status: SignUpStatus,
  /** Masked; null when none was given. */
  email: 'string | null',
  mobileNumber: 'string | null',
  verification: SignUpVerification,
  /** When codes may be sent again (ms), or null when no more may be sent for this sign-up. */
  resendAfter: 'number | null',
});
export type OnlineSignUp = typeof OnlineSignUp.infer;

const Code = upTo(stringLimits.verificationCode);

export const patientSignUps = defineArea({
  business: {
    input: type({ businessId: upTo(stringLimits.id) }),
    output: SignUpBusiness,
    access: publicAccess,
    summary: 'The business of a sign-up page, when it takes online sign-ups (404 otherwise).',
  },
  create: {
    input: type({ businessId: upTo(stringLimits.id), signUp: SignUpForm, 'language?': LanguageChoice }),
    output: OnlineSignUp,
    access: publicAccess,
    summary:
      'Starts an online sign-up (an email or a mobile is needed), sends its codes (in `language` when the visitor chose one) and sets its cookie.',
  },
  get: withoutInput({
    output: OnlineSignUp,
    access: publicAccess,
    summary: "This browser's sign-up (its cookie), or 404.",
  }),
  verify: {
    input: type({
      'emailCode?': Code.or('null'),
      'mobileCode?': Code.or('null'),
      'language?': LanguageChoice,
    }),
    output: OnlineSignUp,
    access: publicAccess,
    summary:
      "Checks the codes of this browser's sign-up; validated once every contact is verified. `language`, when given, replaces the one kept (the page's switch since).",
  },
  resendCodes: {
    input: type({ 'language?': LanguageChoice }),
    output: OnlineSignUp,
    access: publicAccess,
    summary:
      "Sends fresh codes for the contacts of this browser's sign-up not yet verified (in `language`, kept on the sign-up, when given).",
  },
});
