import { type ContactCodeStatus, signUpCodes } from '@medlocker/core';
import { queueMessages } from '../../outbox/index.ts';
import { hashCode, sameHash } from '../../secrets/one-time-codes.ts';
import type { Db, SignUpRow } from './repository.ts';

export type Channel = 'email' | 'mobile';

/** The columns of one channel after a code was sent: fresh status, no attempts, new expiry. */
export function issuedColumns(channel: Channel, signUpId: string, code: string, now: number) {
  const hash = hashCode(signUpId, channel, code);
  const expires = now + signUpCodes.ttlMinutes * 60_000;
  return channel === 'email'
    ? {
        email_code_hash: hash,
        email_code_status: 'notChecked' as const,
        email_code_expires_at: expires,
        email_code_attempts: 0,
      }
    : {
        mobile_code_hash: hash,
        mobile_code_status: 'notChecked' as const,
        mobile_code_expires_at: expires,
        mobile_code_attempts: 0,
      };
}

/** The columns of one channel with no contact (or a contact removed): nothing outstanding. */
export function clearedColumns(channel: Channel) {
  return channel === 'email'
    ? {
        email_code_hash: null,
        email_code_status: 'notChecked' as const,
        email_code_expires_at: null,
        email_code_attempts: 0,
      }
    : {
        mobile_code_hash: null,
        mobile_code_status: 'notChecked' as const,
        mobile_code_expires_at: null,
        mobile_code_attempts: 0,
      };
}

/**
 * Checks a code against one channel of a sign-up (SPEC §4 contact code check) and returns the columns
 * to write (`columns`). A verified channel stays verified; a spent code (tries used up) or a late one is
 * `codeExpired` even when right, until a new one is sent; a wrong one is `codeIncorrect` and uses a try.
 */
export function checkCode(row: SignUpRow, channel: Channel, code: string, now: number) {
  const hash = channel === 'email' ? row.email_code_hash : row.mobile_code_hash;
  const status = channel === 'email' ? row.email_code_status : row.mobile_code_status;
  const attempts = channel === 'email' ? row.email_code_attempts : row.mobile_code_attempts;
  const expires = Number(channel === 'email' ? row.email_code_expires_at : row.mobile_code_expires_at);
  const write = (next: ContactCodeStatus, extra: Record<string, unknown> = {}) => ({
    status: next,
    columns: { [`${channel}_code_status`]: next, ...prefixed(channel, extra) },
  });
  if (status === 'verified') return write('verified');
  if (hash === null || attempts >= signUpCodes.maxAttempts || now > expires) return write('codeExpired');
  if (sameHash(hashCode(row.id, channel, code), hash)) {
    return write('verified', { code_hash: null, code_expires_at: null });
  }
  return write('codeIncorrect', { code_attempts: attempts + 1 });
}

const prefixed = (channel: Channel, extra: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(extra).map(([k, v]) => [`${channel}_${k}`, v]));

/** Queues the code to the patient through the message outbox (sent by the messaging worker). */
export async function queueCode(
  db: Db,
  q: { businessId: string; channel: Channel; recipient: string; code: string; productName: string; now: number },
): Promise<void> {
  const text = `Your ${q.productName} sign-up code is ${q.code}. It expires in ${signUpCodes.ttlMinutes} minutes.`;
  await queueMessages(
    db,
    {
      businessId: q.businessId,
      message: {
        channel: q.channel === 'email' ? 'email' : 'sms',
        recipient: q.recipient,
        templateKey: q.channel === 'email' ? 'signUpEmailCode' : 'signUpMobileCode',
        subject: q.channel === 'email' ? `Your ${q.productName} sign-up code` : null,
        body: text,
      },
      runAfter: q.now,
    },
    q.now,
  );
}
