import { describe, expect, it } from 'bun:test';
import {
  cardSchemeNames,
  cardSchemes,
  exemptionMEndsAt as coreMEndsAt,
  exemptionCodeLabels,
  exemptionCodes,
  type PatientOrderSummary,
} from '@medlocker/core';
import {
  cardNames,
  cardsInWords,
  exemptionMEndsAt,
  exemptions,
  exemptionsOffered,
  formatDay,
  formatMoment,
  formatPence,
  formatTime,
  mayDeclare,
  paymentOf,
  statusOf,
} from './format.ts';

const order = (changes: Partial<PatientOrderSummary> = {}): PatientOrderSummary => ({
  id: 'o1',
  reference: '000001',
  businessName: 'High St Pharmacy',
  status: 'loaded',
  expired: false,
  live: true,
  onHold: false,
  paymentStatus: 'not_required',
  paymentRequired: false,
  prescriptionCharge: 0,
  retailCharge: 0,
  amountDue: 0,
  amountPaid: 0,
  receiptSent: false,
  exemptionCode: null,
  machineName: 'Front door',
  expiresAt: null,
  collected: null,
  cancelled: null,
  created: 0,
  ...changes,
});

describe('what the patient page copies from core', () => {
  it('offers exactly SPEC §5’s exemption codes, with core’s FP10 descriptions', () => {
    expect(exemptions.map((e) => e.code)).toEqual([...exemptionCodes]);
    for (const e of exemptions) expect([e.code, e.label]).toEqual([e.code, exemptionCodeLabels[e.code]]);
  });

  it('names the card schemes as core does', () => {
    expect(Object.keys(cardNames)).toEqual([...cardSchemes]);
    for (const scheme of cardSchemes) expect(cardNames[scheme]).toBe(cardSchemeNames[scheme]);
    expect(cardsInWords(['visa'])).toBe('Visa');
    expect(cardsInWords(['visa', 'mastercard'])).toBe('Visa and Mastercard');
    expect(cardsInWords(['visa', 'mastercard', 'amex'])).toBe('Visa, Mastercard and American Express');
  });

  it('ends exemption M when core does, and offers it only before then', () => {
    expect(exemptionMEndsAt).toBe(coreMEndsAt);
    expect(exemptionsOffered(coreMEndsAt - 1).map((e) => e.code)).toContain('M');
    expect(exemptionsOffered(coreMEndsAt).map((e) => e.code)).not.toContain('M');
    expect(exemptionsOffered(coreMEndsAt)).toHaveLength(12);
  });
});

describe('times and money as patients read them', () => {
  it('says when to collect by in London time, in winter and in summer', () => {
    // 15:15 UTC on 28 November 2025 is 3:15pm in London (GMT); 14:15 UTC on 1 July is 3:15pm (BST).
    const winter = Date.UTC(2025, 10, 28, 15, 15);
    expect(formatMoment(winter, winter)).toBe('3:15pm, Friday 28 November');
    expect(formatTime(Date.UTC(2026, 6, 1, 14, 15))).toBe('3:15pm');
    expect(formatTime(Date.UTC(2025, 10, 28, 0, 5))).toBe('12:05am');
    expect(formatTime(Date.UTC(2025, 10, 28, 12, 0))).toBe('12:00pm');
    // Another year is named.
    expect(formatDay(winter, Date.UTC(2026, 0, 2))).toBe('Friday 28 November 2025');
  });

  it('shows pence as pounds', () => {
    expect(formatPence(990)).toBe('£9.90');
    expect(formatPence(123456)).toBe('£1,234.56');
  });
});

describe('an order in words', () => {
  it('names each state, past ones apart', () => {
    expect(statusOf(order()).text).toBe('Ready to collect');
    expect(statusOf(order({ paymentRequired: true, amountDue: 990 })).text).toBe('Ready once paid');
    expect(statusOf(order({ status: 'new' })).text).toBe('Being prepared');
    expect(statusOf(order({ onHold: true, paymentRequired: true }))).toEqual({
      text: 'Collection paused',
      tone: 'waiting',
    });
    expect(statusOf(order({ expired: true, live: false }))).toEqual({ text: 'Expired', tone: 'past' });
    expect(statusOf(order({ status: 'collected', live: false }))).toEqual({ text: 'Collected', tone: 'past' });
    expect(statusOf(order({ status: 'cancelled', live: false })).text).toBe('Cancelled');
    expect(statusOf(order({ status: 'removed', live: false })).text).toBe('Removed from the locker');
  });

  it('says what was paid or declared', () => {
    expect(paymentOf(order({ paymentStatus: 'paid', amountPaid: 990 }))).toBe('Paid £9.90 by card');
    expect(paymentOf(order({ paymentStatus: 'exemption_declared', exemptionCode: 'F' }))).toBe(
      'Exemption declared: F (prescription prepayment certificate)',
    );
    expect(paymentOf(order({ paymentStatus: 'unpaid', amountDue: 1190 }))).toBe('£11.90 to pay');
    expect(paymentOf(order())).toBeNull();
  });

  it('says an exemption covered the prescription charge while the retail charge is, or was, paid by card', () => {
    const both = { prescriptionCharge: 990, retailCharge: 200, exemptionCode: 'F' as const };
    expect(paymentOf(order({ ...both, paymentStatus: 'unpaid', amountDue: 200 }))).toBe(
      '£2.00 to pay for other items. Exemption declared: F (prescription prepayment certificate) for the prescription charge',
    );
    expect(paymentOf(order({ ...both, paymentStatus: 'paid', amountPaid: 200 }))).toBe(
      'Paid £2.00 by card. Exemption declared: F (prescription prepayment certificate) for the prescription charge',
    );
  });

  it('offers a declaration only on an order with a prescription charge, and only once', () => {
    expect(mayDeclare(order({ paymentStatus: 'unpaid', prescriptionCharge: 990 }))).toBe(true);
    expect(mayDeclare(order({ paymentStatus: 'unpaid', retailCharge: 200 }))).toBe(false);
    expect(mayDeclare(order({ paymentStatus: 'unpaid', prescriptionCharge: 990, exemptionCode: 'F' }))).toBe(false);
  });
});
