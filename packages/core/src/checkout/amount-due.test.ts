import { describe, expect, it } from 'bun:test';
import { orderAmountDue } from './checkout.ts';

describe('orderAmountDue', () => {
  const order = { paymentStatus: 'unpaid' as const, prescriptionCharge: 990, retailCharge: 200, exemptionCode: null };

  it('owes both charges until something is settled', () => {
    expect(orderAmountDue(order)).toBe(1190);
  });

  it('owes the retail charge alone once an exemption is declared: the exemption waives the NHS charge only', () => {
    expect(orderAmountDue({ ...order, exemptionCode: 'F' })).toBe(200);
  });

  it('owes nothing once paid, declared exempt or free', () => {
    for (const paymentStatus of ['paid', 'exemption_declared', 'not_required'] as const) {
      expect(orderAmountDue({ ...order, paymentStatus })).toBe(0);
    }
  });
});
