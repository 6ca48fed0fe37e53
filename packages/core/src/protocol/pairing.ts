import { type } from 'arktype';

/*
 * Pairing, like the OAuth 2.0 device authorization grant (RFC 8628): the locker asks for a device code
 * and a short user code, shows the user code, and polls the token endpoint; staff type the user code
 * into the console's Pair dialog; the locker's next poll gets its tokens.
 */

/**
 * Letters of a user code: consonants only, as RFC 8628 §6.1 suggests, so no code reads as a word and
 * none of 0/O, 1/I/L, 5/S, 2/Z, 8/B can be confused (vowels and digits are left out altogether).
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKMNPQRTVWXZ';
export const USER_CODE_LENGTH = 8;

/** A new user code from `random` (0 ≤ x < 1), e.g. 'KDNV-QXRT' shown, 'KDNVQXRT' stored. */
export function generateUserCode(random: () => number): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) {
    code += USER_CODE_ALPHABET[Math.floor(random() * USER_CODE_ALPHABET.length)];
  }
  return code;
}

/** How a user code is shown: two groups of four. */
export const formatUserCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * What staff typed, as stored: upper case without spaces or hyphens. Returns null for anything that
 * cannot be a user code, so it is refused without a database look-up.
 */
export function normaliseUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** The OAuth grant types the token endpoint accepts. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const REFRESH_TOKEN_GRANT = 'refresh_token';

/** `POST /machine/device/code` answer (RFC 8628 §3.2). */
export const DeviceCodeResponse = type({
  device_code: 'string',
  user_code: 'string',
  verification_uri: 'string',
  /** Seconds until the codes expire. */
  expires_in: 'number.integer > 0',
  /** Seconds the locker waits between polls of the token endpoint. */
  interval: 'number.integer > 0',
});
export type DeviceCodeResponse = typeof DeviceCodeResponse.infer;

/** `POST /machine/token` request: a device code to exchange, or a refresh token to rotate. */
export const TokenRequest = type({ grant_type: `'${DEVICE_CODE_GRANT}'`, device_code: 'string > 0' }).or({
  grant_type: `'${REFRESH_TOKEN_GRANT}'`,
  refresh_token: 'string > 0',
});
export type TokenRequest = typeof TokenRequest.infer;

/** `POST /machine/token` success (RFC 6749 §5.1, plus the machine id and the absolute expiry). */
export const TokenResponse = type({
  access_token: 'string',
  token_type: "'Bearer'",
  /** Seconds the access token stays valid. */
  expires_in: 'number.integer > 0',
  /** The same expiry as ms since the epoch. */
  expires_at: 'number.integer > 0',
  refresh_token: 'string',
  machine_id: 'string',
});
export type TokenResponse = typeof TokenResponse.infer;

/** `POST /machine/token` refusals, with HTTP 400 (RFC 8628 §3.5, RFC 6749 §5.2). */
export const tokenErrors = [
  /** Staff have not entered the user code yet: poll again after `interval`. */
  'authorization_pending',
  /** Polling too fast: add 5 seconds to the interval. */
  'slow_down',
  /** The device code expired before staff entered it: start again with a new one. */
  'expired_token',
  /** The code or refresh token is unknown, used, or revoked: pair again. */
  'invalid_grant',
  /** The request is malformed. */
  'invalid_request',
  'unsupported_grant_type',
] as const;
export type TokenError = (typeof tokenErrors)[number];
