import { describe, expect, it } from 'bun:test';
import {
  Business,
  Charge,
  ExemptionCode,
  fieldErrorsOf,
  isArkErrors,
  Machine,
  NhsNumber,
  SmsSenderId,
  UkMobile,
  UkPostcode,
} from './index.ts';

describe('the public API', () => {
  it('normalises raw input with the named types', () => {
    expect(NhsNumber('943 476 5919')).toBe('9434765919');
    expect(UkMobile('07700 900123')).toBe('+447700900123');
    expect(UkPostcode(' sw1a  1aa ')).toBe('SW1A 1AA');
    expect(Charge('9.80')).toBe(980);
    expect(SmsSenderId('MedLocker')).toBe('MedLocker');
    expect(ExemptionCode('M')).toBe('M');
  });

  it('gives the api a path, id and message per bad field of an entity', () => {
    const r = Machine({ id: 'm1', businessId: 'b1', name: 'Locker', numberOfSlots: 0 });
    expect(isArkErrors(r)).toBe(true);
    if (isArkErrors(r)) expect(fieldErrorsOf(r).map((e) => e.path)).toContain('numberOfSlots');
  });

  it('accepts a stored business', () => {
    const b = {
      id: 'b1',
      name: 'High St Pharmacy',
      email: 'rx@example.com',
      address: { line1: '1 High St', line2: null, line3: null, postTown: 'London', postcode: 'SW1A 1AA' },
      groupId: null,
      keyholdersMobileNumbers: ['+447700900123'],
      notificationEmails: [],
      archived: null,
      logo: null,
      created: 1,
      updated: 2,
    };
    expect(Business(b)).toEqual(b);
  });
});
