import { limits } from '../limits.ts';
import { reject, textInput } from '../validation/rule.ts';

// 1 to 11 characters; letters, digits, hyphen or space, first and last alphanumeric (what UK
// networks accept as an alphanumeric originator).
const senderIdPattern = new RegExp(`^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,${limits.smsSenderIdMaxLength - 2}}[A-Za-z0-9])?$`);

/** True when `value` can be an SMS sender ID. */
export const isSmsSenderId = (value: string): boolean => senderIdPattern.test(value);

/**
 * SPEC §5 SMS sender ID: `SmsSenderId('MyPharmacy')` → 'MyPharmacy', or errors with the SPEC message
 * (INVALID_SENDER_ID). Kept as typed: case shows on the patient's phone.
 */
export const SmsSenderId = textInput('INVALID_SENDER_ID', undefined, 64).narrow(
  (s, ctx) => isSmsSenderId(s) || reject(ctx, 'INVALID_SENDER_ID'),
);
export type SmsSenderId = typeof SmsSenderId.infer;
