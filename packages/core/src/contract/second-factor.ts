import { type } from 'arktype';
import { Required } from '../validation/general.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { type Method, signedInSelf, supportOnly } from './define.ts';
import { byId, byUserId, withoutInput } from './method-builders.ts';
import { Ok } from './ok.ts';

/*
 * A second factor at staff sign-in (docs/SECURITY.md "Second factor", docs/decisions/auth.md): passkeys
 * (WebAuthn) and authenticator-app codes (TOTP, RFC 6238), with one-time recovery codes. After the right
 * password a user with a factor holds a session that can only finish signing in (verifySecondFactor,
 * beginPasskeySignIn); a user whom policy requires to have one and who has none holds a session that can
 * only set one up (the set-up methods here, auth.session and logout).
 */

/** The kinds of second factor. */
export const SecondFactorKind = type("'totp' | 'passkey'");
export type SecondFactorKind = typeof SecondFactorKind.infer;

/** What a user can answer the second-factor step with. */
export const SecondFactorMethod = type("'totp' | 'passkey' | 'recovery'");
export type SecondFactorMethod = typeof SecondFactorMethod.infer;

/** One of a user's second factors, as their account page lists it. */
export const SecondFactor = type({
  id: 'string',
  kind: SecondFactorKind,
  /** The name its owner gave it ("Work phone", "YubiKey"). */
  name: 'string',
  created: 'number',
  /** When it last signed its owner in; null when never. */
  lastUsed: 'number | null',
});
export type SecondFactor = typeof SecondFactor.infer;

/** A factor's name: required, at most 100 characters. */
export const SecondFactorName = upTo(stringLimits.name, Required);

/** A code typed at sign-in: 6 digits from an app, or a recovery code ('K7QF-M2XD-9RTA'). */
export const SecondFactorCode = upTo(32, Required);

const base64url = upTo(16_384, type('string'));

/** A passkey's answer at sign-in (the browser's AuthenticationResponseJSON). */
export const PasskeyAssertion = type({
  id: base64url,
  rawId: base64url,
  response: {
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    'userHandle?': base64url,
  },
  'authenticatorAttachment?': "'platform' | 'cross-platform'",
  clientExtensionResults: 'Record<string, unknown>',
  type: "'public-key'",
});

/** A new passkey (the browser's RegistrationResponseJSON). */
export const PasskeyAttestation = type({
  id: base64url,
  rawId: base64url,
  response: {
    clientDataJSON: base64url,
    attestationObject: base64url,
    'authenticatorData?': base64url,
    'transports?': upTo(32, type('string')).array().atMostLength(10),
    'publicKeyAlgorithm?': 'number',
    'publicKey?': base64url,
  },
  'authenticatorAttachment?': "'platform' | 'cross-platform'",
  clientExtensionResults: 'Record<string, unknown>',
  type: "'public-key'",
});

/** Options for navigator.credentials (WebAuthn's JSON form), handed to @simplewebauthn/browser as they are. */
const WebAuthnOptions = type({ challenge: 'string', '[string]': 'unknown' });

/** A new factor and, when the user had none left, their first recovery codes (shown once). */
const FactorAdded = type({ factor: SecondFactor, recoveryCodes: 'string[] | null' });

export const secondFactorMethods = {
  beginPasskeySignIn: withoutInput({
    output: type({ options: WebAuthnOptions }),
    access: signedInSelf,
    summary:
      "The WebAuthn challenge for the second-factor step of a sign-in (the session the password gave): the user's passkeys may answer it.",
  }),
  listSecondFactors: {
    input: type({ 'userId?': Id }),
    output: type({
      factors: SecondFactor.array(),
      /** Recovery codes not yet used. */
      recoveryCodesLeft: 'number',
      /** Whether policy wants this user to keep at least one factor. */
      required: 'boolean',
    }),
    access: signedInSelf,
    summary: "A user's second factors (name, kind, last used): one's own; support staff: anyone's.",
  },
  beginTotpSetup: withoutInput({
    output: type({ secret: 'string', uri: 'string' }),
    access: signedInSelf,
    summary:
      'A new authenticator-app secret (base32) and its otpauth:// URI for a QR code; nothing is stored until finishTotpSetup proves a code from it.',
  }),
  finishTotpSetup: {
    input: type({ name: SecondFactorName, secret: upTo(64, Required), code: SecondFactorCode }),
    output: FactorAdded,
    access: signedInSelf,
    summary:
      'Adds an authenticator app once a code from its secret checks (400 on code otherwise); a session limited to setting up a factor becomes a full one.',
  },
  beginPasskeySetup: withoutInput({
    output: type({ options: WebAuthnOptions }),
    access: signedInSelf,
    summary:
      'The WebAuthn options to create a passkey for the signed-in user (the challenge is kept on the session for 5 minutes).',
  }),
  finishPasskeySetup: {
    input: type({ name: SecondFactorName, response: PasskeyAttestation }),
    output: FactorAdded,
    access: signedInSelf,
    summary: "Adds the passkey the browser created for this session's challenge.",
  },
  removeSecondFactor: byId({
    output: Ok,
    access: signedInSelf,
    summary:
      "Removes one of one's own second factors; the last one is refused (409) while policy requires the user to have one.",
  }),
  regenerateRecoveryCodes: withoutInput({
    output: type({ recoveryCodes: 'string[]' }),
    access: signedInSelf,
    summary: 'Ten new one-time recovery codes, shown this once; the old ones stop working.',
  }),
  resetSecondFactors: byUserId({
    output: type({ ok: 'true', removed: 'number' }),
    access: supportOnly,
    summary:
      'Removes every second factor and recovery code of a user (who lost their device) and ends their sessions; audited, and the user is told by email.',
  }),
} satisfies Record<string, Method>;

/** The verifySecondFactor input: a code (TOTP or recovery) or a passkey's answer. */
export const SecondFactorAnswer = type({ 'code?': SecondFactorCode, 'passkey?': PasskeyAssertion });
