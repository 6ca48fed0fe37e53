import { type ContactCodeStatus, codeTextIn, type Locale, signUpCodeSubjectIn, signUpCodes } from '@medlocker/core';
import { queueMessages } from '../../outbox/index.ts';
import { hashCode, sameHash } from '../../secrets/one-time-codes.ts';
import type { Channel, CodeState, Db, SignUpRecord } from './repository.ts';

export type { Channel };

/** One channel after a code was sent: fresh status, no attempts, new expiry. */
export function issuedCode(signUpId: string, channel: Channel, code: string, now: number): CodeState {
  return {
    hash: hashCode(signUpId, channel, code),
    status: 'notChecked',
    expiresAt: now + signUpCodes.ttlMinutes * 60_000,
    attempts: 0,
  };
}

/** One channel with no contact (or a contact removed): nothing outstanding. */
export const clearedCode: CodeState = { hash: null, status: 'notChecked', expiresAt: null, attempts: 0 };

/** A channel's code state in a sign-up: `emailCode` or `mobileCode`. */
export const codeKey = (channel: Channel) => `${channel}Code` as const;

/**
 * Checks a code against one channel of a sign-up (SPEC §4 contact code check) and returns what to write
 * (`code`, the channel's changed fields). A verified channel stays verified; a spent code (tries used up)
 * or a late one is `codeExpired` even when right, until a new one is sent; a wrong one is `codeIncorrect`
 * and uses a try.
 */
export function checkCode(
  record: SignUpRecord,
  channel: Channel,
  code: string,
  now: number,
): { status: ContactCodeStatus; code: Partial<CodeState> } {
  const { hash, status, attempts, expiresAt } = record[codeKey(channel)];
  const expires = Number(expiresAt);
  const write = (next: ContactCodeStatus, extra: Partial<CodeState> = {}) => ({
    status: next,
    code: { status: next, ...extra },
  });
  if (status === 'verified') return write('verified');
  if (hash === null || attempts >= signUpCodes.maxAttempts || now > expires) return write('codeExpired');
  if (sameHash(hashCode(record.id, channel, code), hash)) {
    return write('verified', { hash: null, expiresAt: null });
  }
  return write('codeIncorrect', { attempts: attempts + 1 });
}

/**
 * Queues the code to the patient through the message outbox (sent by the messaging worker), in
 * `locales`: the business's patient language, the one the online sign-up page opens in (nobody is known
 * yet to have chosen another); bilingual is one message, Welsh first.
 */
export async function queueCode(
  db: Db,
  q: {
    businessId: string;
    channel: Channel;
    recipient: string;
    code: string;
    productName: string;
    locales: readonly Locale[];
    now: number;
  },
): Promise<void> {
  const values = { productName: q.productName, code: q.code, minutes: signUpCodes.ttlMinutes };
  await queueMessages(
    db,
    {
      businessId: q.businessId,
      message: {
        channel: q.channel === 'email' ? 'email' : 'sms',
        recipient: q.recipient,
        templateKey: q.channel === 'email' ? 'signUpEmailCode' : 'signUpMobileCode',
        subject: q.channel === 'email' ? signUpCodeSubjectIn(q.locales, q.productName) : null,
        body: codeTextIn(q.locales, 'signUpCode', values),
      },
      runAfter: q.now,
    },
    q.now,
  );
}
