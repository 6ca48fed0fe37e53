import { timingSafeEqual } from 'node:crypto';
import { signUpCodes } from '@medlocker/core';

/* One-time codes sent to prove a contact detail: drawn, stored hashed, compared in constant time. */

/** A uniformly drawn code of `signUpCodes.digits` digits (rejection sampling: no modulo bias). */
export function newCode(): string {
  const range = 10 ** signUpCodes.digits;
  const limit = Math.floor(0x1_0000_0000 / range) * range;
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    const n = buf[0] as number;
    if (n < limit) return String(n % range).padStart(signUpCodes.digits, '0');
  }
}

/**
 * Only this is stored: a code is bound to what it proves (a sign-up's email, a patient's mobile), so a
 * hash says nothing elsewhere.
 */
export const hashCode = (subject: string, channel: string, code: string): string =>
  new Bun.CryptoHasher('sha256').update(`${subject}:${channel}:${code.trim()}`).digest('hex');

/** Compares two hashes in constant time. */
export const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
