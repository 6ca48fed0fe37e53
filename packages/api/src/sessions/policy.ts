/**
 * The sign-in numbers, in one place because docs/SECURITY.md states them and the tests check them.
 */
export const authPolicy = {
  sessionCookie: 'medlocker_session',
  /** A session never outlives this, however active. */
  sessionAbsoluteMs: 12 * 60 * 60 * 1000,
  /** A session unused for this long has timed out. */
  sessionIdleMs: 30 * 60 * 1000,
  /** Idle expiry is pushed forward at most once a minute, so reads do not each write. */
  sessionTouchAfterMs: 60 * 1000,
  /** Failed logins on one username within the window that lock it. */
  lockoutThreshold: 5,
  lockoutWindowMs: 15 * 60 * 1000,
  /** SPEC §8/§9: 'Please try again in 5 minutes'. */
  lockoutMs: 5 * 60 * 1000,
  resetTokenMs: 60 * 60 * 1000,
  /** The link in an invitation or registration email: the recipient may not read it within the hour. */
  inviteTokenMs: 24 * 60 * 60 * 1000,
  /** A session that has proved the password waits this long for the second factor. */
  secondFactorStepMs: 10 * 60 * 1000,
  /** A WebAuthn challenge (passkey sign-in or set-up) is answered within this. */
  webAuthnChallengeMs: 5 * 60 * 1000,
  /** Authenticator-app codes: RFC 6238's 30-second steps, 6 digits, SHA-1; one step either side accepted. */
  totpPeriodSeconds: 30,
  totpDigits: 6,
  totpWindow: 1,
  /** Recovery codes issued at a time. */
  recoveryCodes: 10,
} as const;

export const authMessages = {
  invalidCredentials: 'Invalid username or password',
  tooManyAttempts:
    'Your account has been temporarily disabled due to too many incorrect login attempts. Please try again in 5 minutes.',
  forceReset: 'You need to set a new password before you can log in. We can email you a link to do so.',
  sessionTimedOut: 'Your session has timed out. Please log in again',
  notLoggedIn: 'Please log in',
  invalidResetLink: 'You have clicked on an expired or invalid link. Please try again.',
  invalidSecondFactor: 'That code or passkey was not accepted. Please try again.',
  setUpSecondFactor: 'Set up a second factor (a passkey or an authenticator app) before you continue.',
  lastSecondFactor:
    'You must keep at least one second factor: add another (a passkey or an authenticator app) before removing this one.',
} as const;
