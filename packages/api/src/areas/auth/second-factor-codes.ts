import { randomInt } from 'node:crypto';
import { AppError } from '@medlocker/core';
import { Secret, TOTP } from 'otpauth';
import type { AppDeps } from '../../context/deps.ts';
import { authPolicy } from '../../sessions/policy.ts';
import { hashToken } from '../../sessions/tokens.ts';
import { linkOrigin, type Site } from './mails.ts';

/*
 * The parts of a second factor that are arithmetic, not storage: authenticator-app codes (RFC 6238 through
 * otpauth), recovery codes, and which origin and RP ID passkeys are bound to.
 */

/** A new authenticator-app secret: 160 random bits (RFC 4226's recommended length), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

function totpOf(secretBase32: string, label = '', issuer = ''): TOTP {
  let secret: Secret;
  try {
    secret = Secret.fromBase32(secretBase32.replace(/\s+/g, '').toUpperCase());
  } catch {
    throw new AppError('VALIDATION', 'Value is not correctly formatted', [
      { path: 'secret', id: 'INVALID_FORMAT', message: 'Value is not correctly formatted' },
    ]);
  }
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: authPolicy.totpDigits,
    period: authPolicy.totpPeriodSeconds,
    secret,
  });
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export const totpUri = (secretBase32: string, account: string, issuer: string): string =>
  totpOf(secretBase32, account, issuer).toString();

/**
 * The time step a code belongs to when it is right for the secret now (one step either side allowed, for
 * clocks a little apart), else null. The caller refuses a step already taken.
 */
export function totpStepOf(secretBase32: string, code: string, now: number): number | null {
  const totp = totpOf(secretBase32);
  const delta = totp.validate({ token: code, timestamp: now, window: authPolicy.totpWindow });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/** Whether a typed code is shaped like an authenticator app's (6 digits, spaces allowed) rather than a recovery code. */
export const looksLikeTotp = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s+/g, ''));

// No 0/O, 1/I/L: a recovery code is read off paper.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** New recovery codes as the user sees them: 'K7QF-M2XD-9RTA' (12 characters, about 59 bits each). */
export function newRecoveryCodes(count: number = authPolicy.recoveryCodes): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
  });
}

/** What is stored of a recovery code: a SHA-256 of the user and the code without its dashes, any case. */
export const recoveryCodeHash = (userId: string, code: string): string =>
  hashToken(`${userId}:${code.replace(/[\s-]+/g, '').toUpperCase()}`);

/**
 * The origin and RP ID passkeys are made for and checked against: the request's own origin when it is one
 * of PUBLIC_URL's (the only ones the api answers in production), else the first PUBLIC_URL; outside
 * production without PUBLIC_URL, the request's origin.
 */
export function relyingPartyOf(deps: Pick<AppDeps, 'config'>, site: Site) {
  const origin = deps.config.publicUrls.includes(site.requestOrigin)
    ? site.requestOrigin
    : (linkOrigin(deps, site) ?? site.requestOrigin);
  return { origin, rpID: new URL(origin).hostname, rpName: deps.config.productName };
}
