import { describe, expect, it } from 'bun:test';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import { PaymentSettings } from './payment-settings.ts';

const judo = {
  id: '12345678',
  sandbox: true,
  token: 'tokentoken',
  secret: 'secretsecret',
  showVisa: true,
  showAmex: false,
  showMastercard: true,
};
const errorsOf = (r: unknown) => (isArkErrors(r) ? fieldErrorsOf(r) : []);

describe('PaymentSettings', () => {
  it('accepts full card provider settings', () => {
    const s = { businessId: 'b1', contactNumber: '020 7946 0000', legalInfo: 'Ltd', provider: 'judo' as const, judo };
    expect(PaymentSettings(s)).toEqual(s);
  });

  it('requires the contact number and legal info', () => {
    expect(
      errorsOf(PaymentSettings({ businessId: 'b1', contactNumber: ' ', legalInfo: '', provider: null, judo: null })),
    ).toEqual([
      { path: 'contactNumber', id: 'REQUIRED', message: 'Please enter a value' },
      { path: 'legalInfo', id: 'REQUIRED', message: 'Please enter a value' },
    ]);
  });

  it('needs the card provider credentials at least 8 characters long', () => {
    const r = PaymentSettings({
      businessId: 'b1',
      contactNumber: '1',
      legalInfo: 'x',
      provider: 'judo',
      judo: { ...judo, token: 'short' },
    });
    expect(errorsOf(r)).toEqual([
      { path: 'judo.token', id: 'INVALID_LENGTH', message: 'Value must be at least 8 characters long' },
    ]);
  });

  it('needs the card provider details when the provider is chosen', () => {
    expect(
      errorsOf(
        PaymentSettings({ businessId: 'b1', contactNumber: '1', legalInfo: 'x', provider: 'judo', judo: null }),
      )[0]?.path,
    ).toBe('judo');
  });
});
