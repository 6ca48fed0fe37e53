import { describe, expect, it } from 'bun:test';
import type { PatientOrderSummary } from '@medlocker/core';
import { cardsInWords, formatMoment, paymentOf } from '../format.ts';
import { dateOfBirthOf } from '../pages/DateOfBirth.tsx';
import { cy } from './cy.ts';
import { en } from './en.ts';
import { sayDetail, sayRefusal } from './errors.ts';
import { patientLayer, t } from './index.ts';

/** The `{name}` arguments a message uses (plural arguments included), sorted. */
const argumentsOf = (text: string) => [...new Set([...text.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]))].sort();

describe('the patient page’s catalogs', () => {
  it('give every English message a Welsh one with the same placeholders', () => {
    for (const id of Object.keys(en) as (keyof typeof en)[]) {
      expect([id, argumentsOf(cy[id])]).toEqual([id, argumentsOf(en[id])]);
      expect(cy[id].trim()).not.toBe('');
    }
  });

  it('have no Welsh message without its English one', () => {
    expect(Object.keys(cy).sort()).toEqual(Object.keys(en).sort());
  });
});

/** Runs `check` with the page in Welsh, then back in English. */
async function inWelsh(check: () => void) {
  await patientLayer.activate('cy');
  try {
    check();
  } finally {
    await patientLayer.activate('en');
  }
}

describe('the page in Welsh', () => {
  const order = (over: Partial<PatientOrderSummary>) =>
    ({ paymentStatus: 'paid', amountPaid: 990, amountDue: 0, exemptionCode: null, ...over }) as PatientOrderSummary;

  it('says what was paid or declared, with the exemption in Welsh', async () => {
    await inWelsh(() => {
      expect(paymentOf(order({}))).toBe('Talwyd £9.90 â cherdyn');
      expect(paymentOf(order({ paymentStatus: 'exemption_declared', exemptionCode: 'U' }))).toBe(
        'Esemptiad wedi’i ddatgan: U (Credyd Cynhwysol)',
      );
      expect(cardsInWords(['visa', 'mastercard', 'amex'])).toBe('Visa, Mastercard ac American Express');
    });
    expect(paymentOf(order({ paymentStatus: 'exemption_declared', exemptionCode: 'U' }))).toBe(
      'Exemption declared: U (Universal Credit)',
    );
  });

  it('says what is wrong with a date of birth', async () => {
    await inWelsh(() => {
      expect(dateOfBirthOf('27', '', '', new Date()).error).toBe('Rhaid i’r dyddiad geni gynnwys mis a blwyddyn');
      expect(dateOfBirthOf('31', '2', '1985', new Date()).error).toBe('Rhowch ddyddiad dilys');
    });
  });

  it('says the server’s refusals it knows in Welsh, and keeps the server’s words for one it does not', async () => {
    const wrongDate = {
      code: 'VALIDATION',
      message: 'We could not confirm your details. You have 4 tries left before this link is locked for 15 minutes.',
      details: [{ path: 'dateOfBirth', id: 'IDENTITY_NOT_CONFIRMED', message: 'We could not confirm your details.' }],
    };
    const unknown = { code: 'CONFLICT', message: 'This order is settled already', details: [] };
    expect(sayRefusal(wrongDate, 'MedLocker')).toBe(wrongDate.message);
    await inWelsh(() => {
      expect(sayRefusal(wrongDate, 'MedLocker')).toStartWith('Doedd dim modd cadarnhau eich manylion.');
      expect(sayDetail({ path: 'signUp.postcode', id: 'INVALID_UK_POSTCODE', message: 'Invalid UK postcode' })).toBe(
        'Cod post yn y DU annilys',
      );
      expect(sayRefusal({ code: 'UNREACHABLE', message: '', details: [] }, 'MedLocker')).toBe(
        'Doedd dim modd cysylltu â gweinydd MedLocker. Gwiriwch eich cysylltiad a rhowch gynnig arall arni.',
      );
      expect(sayRefusal(unknown, 'MedLocker')).toBe('This order is settled already');
    });
  });
});

describe('the layer', () => {
  it('speaks English until Welsh is chosen, then Welsh with its plurals and dates', async () => {
    expect(t('order.heading', { business: 'Fferyllfa Treganna' })).toBe('Your order from Fferyllfa Treganna');
    expect(t('orders.count', { count: 2 })).toBe('You have 2 orders');
    const friday = Date.UTC(2025, 10, 28, 15, 15);
    await patientLayer.activate('cy');
    try {
      expect(t('order.heading', { business: 'Fferyllfa Treganna' })).toBe('Eich archeb gan Fferyllfa Treganna');
      expect(t('orders.count', { count: 0 })).toBe('Does gennych chi ddim archebion');
      expect(t('orders.count', { count: 2 })).toBe('Mae gennych 2 archeb');
      expect(formatMoment(friday, friday)).toBe('15:15, Dydd Gwener, 28 Tachwedd');
    } finally {
      await patientLayer.activate('en');
    }
    expect(formatMoment(friday, friday)).toBe('3:15pm, Friday 28 November');
  });
});
