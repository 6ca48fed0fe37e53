// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the subject of these tests.
import { describe, expect, it } from 'bun:test';
import { defaultSmsTemplates } from '../contract/business-settings.ts';
import { smsParts, smsPreviewCaption } from '../format/sms.ts';
import { fixedPatientMessages } from '../settings/patient-messages.ts';
import { placeholdersIn, type SmsTemplateKey, smsTemplateErrors, smsTemplateKeys } from '../settings/sms-templates.ts';
import { joinLanguages, messageLocales, pageLocale } from './language.ts';
import {
  codeMessages,
  codeTextIn,
  expiresIn,
  machineAndBusinessIn,
  orderEmailSubject,
  signUpCodeSubjectIn,
} from './patient-wording.ts';
import { welshCodeMessages, welshFixedMessages, welshSmsTemplates } from './welsh-messages.ts';

const sorted = (text: string) => placeholdersIn(text).sort();

describe('which language a patient gets', () => {
  it('gives the patient’s own choice over the business’s default', () => {
    expect(messageLocales('bilingual', 'en')).toEqual(['en']);
    expect(messageLocales('en', 'cy')).toEqual(['cy']);
  });

  it('puts Welsh first for a bilingual business, and opens its page in Welsh', () => {
    expect(messageLocales('bilingual', null)).toEqual(['cy', 'en']);
    expect(pageLocale('bilingual', null)).toBe('cy');
    expect(joinLanguages(['Helo', 'Hello'])).toBe('Helo\n\nHello');
  });
});

describe('the Welsh wording', () => {
  it('passes the checks every template must pass, with the English one’s placeholders', () => {
    for (const key of smsTemplateKeys) {
      expect([key, smsTemplateErrors(key, welshSmsTemplates[key])]).toEqual([key, []]);
      expect([key, sorted(welshSmsTemplates[key])]).toEqual([key, sorted(defaultSmsTemplates[key as SmsTemplateKey])]);
    }
    for (const key of Object.keys(fixedPatientMessages) as (keyof typeof fixedPatientMessages)[]) {
      expect([key, sorted(welshFixedMessages[key])]).toEqual([key, sorted(fixedPatientMessages[key])]);
    }
  });

  it('writes dates with Welsh month names and the hour after "am" (London time)', () => {
    const at = Date.UTC(2026, 10, 27, 18, 30);
    expect(expiresIn('cy', at)).toBe('27 Tachwedd 2026 am 18:30');
    expect(expiresIn('en', at)).toBe('27 November 2026 at 18:30');
    // Summer time: 17:00 UTC is 18:00 in London; Gorffennaf is July.
    expect(expiresIn('cy', Date.UTC(2026, 6, 3, 17, 0))).toBe('3 Gorffennaf 2026 am 18:00');
  });

  it('names the machine and business without a mutating "yn" in Welsh, and words the email subject', () => {
    expect(machineAndBusinessIn('cy', 'Ffenestr', 'Fferyllfa Treganna')).toBe('Ffenestr, Fferyllfa Treganna');
    expect(machineAndBusinessIn('en', 'Window', 'Harborne')).toBe('Window at Harborne');
    expect(orderEmailSubject(['cy', 'en'], 'Treganna')).toBe('Eich archeb gan Treganna / Your order from Treganna');
  });

  it('words the codes sent to patients with the English one’s placeholders, bilingual in one message', () => {
    for (const key of Object.keys(codeMessages) as (keyof typeof codeMessages)[]) {
      expect([key, sorted(welshCodeMessages[key])]).toEqual([key, sorted(codeMessages[key])]);
    }
    const values = { productName: 'MedLocker', code: '123456', minutes: 10 };
    expect(codeTextIn(['cy', 'en'], 'patientVerifyCode', values)).toBe(
      "123456 yw eich cod MedLocker i weld eich archeb. Mae'n gweithio am 10 munud. Peidiwch â'i rannu.\n\n" +
        '123456 is your MedLocker code to see your order. It expires in 10 minutes. Do not share it.',
    );
    expect(signUpCodeSubjectIn(['cy', 'en'], 'MedLocker')).toBe(
      'Eich cod cofrestru MedLocker / Your MedLocker sign-up code',
    );
    expect(signUpCodeSubjectIn(['en'], 'MedLocker')).toBe('Your MedLocker sign-up code');
  });
});

describe('SMS parts', () => {
  it('sends GSM text in 160 characters, then parts of 153', () => {
    expect(smsParts('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, parts: 1 });
    expect(smsParts('a'.repeat(307)).parts).toBe(3);
    // The euro sign and braces take two characters' room.
    expect(smsParts('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, parts: 1 });
  });

  it('sends a text with a Welsh ŵ, ŷ or â as Unicode: 70 characters, then parts of 67', () => {
    expect(smsParts(`Cysylltwch â ni${'a'.repeat(55)}`)).toEqual({ encoding: 'UCS-2', units: 70, parts: 1 });
    expect(smsParts(`ŵ${'a'.repeat(70)}`).parts).toBe(2);
    expect(smsParts(`ŷ${'a'.repeat(134)}`).parts).toBe(3);
  });

  it('shows the part count a second language adds, and why', () => {
    const english =
      'Your order from Harborne is ready at Window. PIN: 1234 5678. Please collect by 31 January 2030 at 18:30.';
    expect(smsPreviewCaption(english)).toBe(`Example SMS (${english.length} letters / 1 page)`);
    const both = joinLanguages([welshSmsTemplates.machineOutOfOrder, english]);
    expect(smsPreviewCaption(both)).toMatch(/^Example SMS \(\d+ letters \/ [3-9] pages, sent as Unicode\)$/);
  });
});
