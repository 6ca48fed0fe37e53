import { describe, expect, it } from 'bun:test';
import { formatMoment } from '../format.ts';
import { cy } from './cy.ts';
import { en } from './en.ts';
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
