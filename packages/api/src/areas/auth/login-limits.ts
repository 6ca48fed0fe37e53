import { AppError, counted } from '@medlocker/core';
import type { Bucket } from '../../rate-limits/repository.ts';
import { authMessages } from '../../sessions/policy.ts';

export const tooManyAttempts = { ok: false, reason: 'TooManyAttempts', message: authMessages.tooManyAttempts } as const;
export const invalidCredentials = {
  ok: false,
  reason: 'InvalidCredentials',
  message: authMessages.invalidCredentials,
} as const;

/**
 * Per client address, beside the per-account lockout: failed sign-ins (30 per 15 minutes, so one
 * address cannot try a password across many accounts; in the database, shared by every process), and
 * the calls that send mail to whoever is named (registration and reset requests, 10 an hour; in the
 * database too).
 */
export const addressLimits = { failedLogins: 30, failedLoginsPerMs: 15 * 60_000, mails: 10, mailsPerMs: 60 * 60_000 };
export const failedLoginBucket = { capacity: addressLimits.failedLogins, perMs: addressLimits.failedLoginsPerMs };
export const mailBucket: Bucket = { capacity: addressLimits.mails, perMs: addressLimits.mailsPerMs };

/** The 429 of an address limit: 'Too many {what} from this address. Please try again in N minutes.' */
export function tooMany(what: string, retryAfterSeconds: number): AppError {
  const wait = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(
    'RATE_LIMITED',
    `Too many ${what} from this address. Please try again in ${counted(wait, 'minute')}.`,
    undefined,
    retryAfterSeconds,
  );
}
