import { describe, expect, it } from 'bun:test';
import { isArkErrors } from '../validation/rule.ts';
import { isSmsSenderId, SmsSenderId } from './sms-sender-id.ts';

const message =
  'The Sender ID must be 1-11 alpha-numeric or hyphen (-) characters. It has to start and end with an alphanumeric character';

describe('SmsSenderId', () => {
  it('accepts 1 to 11 letters and digits, with hyphens or spaces inside', () => {
    for (const s of ['A', 'MyPharmacy', 'Pharm-24', 'High St 24', 'ABCDEFGHIJK', 'A1']) expect(SmsSenderId(s)).toBe(s);
  });

  it('refuses more than 11 characters with the SPEC message', () => {
    const r = SmsSenderId('ABCDEFGHIJKL');
    expect(isArkErrors(r) && r.summary).toBe(message);
  });

  it('refuses a hyphen or space at either end', () => {
    for (const s of ['-Pharm', 'Pharm-', ' Pharm', 'Pharm ', '-']) expect(isSmsSenderId(s)).toBe(false);
  });

  it('refuses empty text and other characters', () => {
    for (const s of ['', 'Pharm_24', 'Pharm.24', 'Phärm', 'Ph@rm']) expect(isSmsSenderId(s)).toBe(false);
  });
});
