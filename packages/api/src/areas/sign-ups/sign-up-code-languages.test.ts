import { expect, it } from 'bun:test';
import type { PatientLanguage } from '@medlocker/core';
import { describeApi } from '../../testing/api.ts';
import { insertBusiness } from '../../testing/patients.ts';

const form = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1990-12-10',
  email: 'ada@example.com',
  mobileNumber: '07700 900123',
  address: { line1: '1 High Street', line2: null, line3: null, postTown: 'CARDIFF', postcode: 'cf10 1aa' },
};

const welsh = "Eich cod cofrestru MedLocker yw CODE. Mae'n gweithio am 15 munud.";
const english = 'Your MedLocker sign-up code is CODE. It expires in 15 minutes.';
const welshSubject = 'Eich cod cofrestru MedLocker';
const englishSubject = 'Your MedLocker sign-up code';

/** What each business language sends: the text (email body and SMS alike) and the email's subject. */
const cases: [string, PatientLanguage | undefined, string, string][] = [
  ['an English one (by default)', undefined, english, englishSubject],
  ['an English one', 'en', english, englishSubject],
  ['a Welsh one', 'cy', welsh, welshSubject],
  ['a bilingual one, Welsh first', 'bilingual', `${welsh}\n\n${english}`, `${welshSubject} / ${englishSubject}`],
];

describeApi('sign-up codes, in the business’s patient language', (t) => {
  const support = async () => ({ cookie: (await t.signIn({ support: true })).cookie });

  /** A business sending its patients `language`, taking sign-ups online. */
  const business = async (language?: PatientLanguage) => {
    const businessId = await insertBusiness(t.db);
    const onlineSignups = { enabled: true, url: `https://medlocker.test/signup/${businessId}` };
    const settings = { onlineSignups, ...(language ? { nation: 'wales', patientLanguage: language } : {}) };
    const res = await t.call(
      'businessSettings',
      'updateBusinessFeatureSettings',
      { businessId, settings },
      await support(),
    );
    expect(res.status).toBe(200);
    return businessId;
  };

  /** The codes queued for a sign-up's contacts, their code (one per message, however often said) written CODE. */
  const queued = async (businessId: string) => {
    const rows = await t.db
      .selectFrom('message_outbox')
      .select(['channel', 'subject', 'body'])
      .where('business_id', '=', businessId)
      .orderBy('channel')
      .execute();
    for (const row of rows) expect(new Set(row.body.match(/\d{6}/g)).size).toBe(1);
    return rows.map((r) => ({ ...r, body: r.body.replace(/\d{6}/g, 'CODE') }));
  };
  const expected = (text: string, subject: string) => [
    { channel: 'email' as const, subject, body: text },
    { channel: 'sms' as const, subject: null, body: text },
  ];

  for (const [which, language, text, subject] of cases) {
    it(`sends a staff-entered sign-up’s codes in the business’s language: ${which}`, async () => {
      const businessId = await business(language);
      const res = await t.call('signUps', 'create', { businessId, signUp: form }, await support());
      expect(res.status).toBe(200);
      expect(await queued(businessId)).toEqual(expected(text, subject));
    });

    it(`sends an online sign-up’s codes in the language its page opens in: ${which}`, async () => {
      const businessId = await business(language);
      const res = await t.call('patientSignUps', 'create', { businessId, signUp: form });
      expect(res.status).toBe(200);
      expect(await queued(businessId)).toEqual(expected(text, subject));
    });
  }
});
