// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject of these tests.
import { describe, expect, it } from 'bun:test';
import { renderTemplate } from '../format/template.ts';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import { placeholdersIn, SmsTemplates, smsTemplateErrors } from './sms-templates.ts';

const ready = 'Your order at ${businessName} is ready. PIN ${pin}, collect by ${expires}.';

describe('smsTemplateErrors', () => {
  it('accepts an order-ready template with ${pin} and ${expires}', () => {
    expect(smsTemplateErrors('orderReady', ready)).toEqual([]);
  });

  it('names each missing required placeholder', () => {
    expect(smsTemplateErrors('orderUpdated', 'Updated: ${businessName}')).toEqual([
      { path: 'orderUpdated', id: 'MISSING_PLACEHOLDER', message: 'Missing ${pin} placeholder' },
      { path: 'orderUpdated', id: 'MISSING_PLACEHOLDER', message: 'Missing ${expires} placeholder' },
    ]);
    expect(smsTemplateErrors('paymentRequired', 'Please pay')).toEqual([
      { path: 'paymentRequired', id: 'MISSING_PLACEHOLDER', message: 'Missing ${portal} placeholder' },
    ]);
  });

  it('refuses an unknown placeholder, such as a typo', () => {
    expect(smsTemplateErrors('orderCollected', 'Thanks from ${bussinessName}')).toEqual([
      { path: 'orderCollected', id: 'UNKNOWN_PLACEHOLDER', message: 'Unknown placeholder ${bussinessName}' },
    ]);
  });

  it('needs nothing in templates without required placeholders', () => {
    expect(smsTemplateErrors('machineOutOfOrder', '${machineName} is out of order')).toEqual([]);
  });

  it('lists placeholders in order', () => {
    expect(placeholdersIn(ready)).toEqual(['businessName', 'pin', 'expires']);
  });
});

describe('SmsTemplates', () => {
  it('accepts a partial set of good templates', () => {
    expect(SmsTemplates({ orderReady: ready })).toEqual({ orderReady: ready });
  });

  it('reports the first problem of each template at its key', () => {
    const r = SmsTemplates({ orderReady: 'PIN ${pin}', paymentRequired: 'Pay' });
    expect(isArkErrors(r) && fieldErrorsOf(r)).toEqual([
      { path: 'orderReady', id: 'MISSING_PLACEHOLDER', message: 'Missing ${expires} placeholder' },
      { path: 'paymentRequired', id: 'MISSING_PLACEHOLDER', message: 'Missing ${portal} placeholder' },
    ]);
  });
});

describe('renderTemplate', () => {
  it('fills in the values given', () => {
    expect(
      renderTemplate(ready, { businessName: 'High St Pharmacy', pin: '1234 5678', expires: '05 March 2024' }),
    ).toBe('Your order at High St Pharmacy is ready. PIN 1234 5678, collect by 05 March 2024.');
  });

  it('leaves a placeholder without a value as written, and an undefined value empty', () => {
    expect(renderTemplate('${pin}/${expires}', { pin: undefined })).toBe('/${expires}');
  });

  it('repeats values and ignores values not in the template', () => {
    expect(renderTemplate('${pin} ${pin}', { pin: '1', portal: 'x' })).toBe('1 1');
  });
});
