/*
 * NHS login for patients (docs/decisions/patients.md, "NHS login"): what the api asks of NHS login and
 * the words the patient page shows when a login is refused. The callback sends the browser back to the
 * order's page with `?nhsLogin=<reason>`; the page says the reason's words and offers the other ways.
 */

/**
 * The vectors of trust asked for (`vtr`), any of them: identity verified to P9 (a verified NHS number),
 * authenticated with a password and a second factor. P0 and P5 users have no verified NHS number.
 */
export const nhsLoginVectorsOfTrust = ['P9.Cp.Cd', 'P9.Cp.Ck', 'P9.Cm'] as const;

/** The identity proofing level the returned vector of trust (`vot`) must reach. */
export const nhsLoginRequiredLevel = 'P9';

/** The scopes asked for: `profile` carries `nhs_number` and `birthdate`. */
export const nhsLoginScopes = 'openid profile';

export const nhsLoginFailures = [
  'mismatch',
  'level',
  'cancelled',
  'expired',
  'provider',
  'failed',
  'locked',
  'unavailable',
] as const;
export type NhsLoginFailure = (typeof nhsLoginFailures)[number];

/** What the patient page says for each refused NHS login. */
export const nhsLoginMessages: Record<NhsLoginFailure, string> = {
  mismatch:
    'Your NHS login details do not match this order. Confirm your date of birth or get a code by text instead, or contact the pharmacy.',
  level:
    'Your NHS login has not been fully verified, so it cannot confirm your NHS number. Confirm your date of birth or get a code by text instead.',
  cancelled: 'You did not finish signing in with NHS login. You can try again, or confirm who you are another way.',
  expired: 'Your NHS login took too long or was already used. Please try again, or confirm who you are another way.',
  provider: 'NHS login could not be reached. Please try again later, or confirm who you are another way.',
  failed: 'Your NHS login could not be checked. Please try again, or confirm who you are another way.',
  locked: 'Too many wrong tries: for your security this link is locked. Please try again later.',
  unavailable: 'NHS login is not available for this order. Confirm who you are another way.',
};

/** The reason of an `?nhsLogin=` query value, or null for anything else. */
export const nhsLoginFailureOf = (value: string | null): NhsLoginFailure | null =>
  nhsLoginFailures.find((f) => f === value) ?? null;
