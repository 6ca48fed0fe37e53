import { expect, it } from 'bun:test';
import { type Locale, onlineSignUpLimits, type PatientLanguage } from '@medlocker/core';
import { describeApi } from '../../testing/api.ts';
import { enableWhatsApp, insertBusiness, whatsAppOptInCodeText } from '../../testing/patients.ts';

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

/** What a visitor who chose `choice` on the sign-up page gets, at a business sending `business`. */
const choices: [PatientLanguage, Locale, string, string][] = [
  ['cy', 'en', english, englishSubject],
  ['bilingual', 'en', english, englishSubject],
  ['en', 'cy', welsh, welshSubject],
  ['bilingual', 'cy', welsh, welshSubject],
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

  for (const [businessLanguage, choice, text, subject] of choices) {
    it(`sends the codes in the language the visitor chose on the page (${choice}), not the business’s (${businessLanguage})`, async () => {
      const businessId = await business(businessLanguage);
      const res = await t.call('patientSignUps', 'create', { businessId, signUp: form, language: choice });
      expect(res.status).toBe(200);
      expect(await queued(businessId)).toEqual(expected(text, subject));
    });
  }

  /** The sign-up rows of a business, with their language. */
  const stored = (businessId: string) =>
    t.db.selectFrom('patient_sign_ups').select(['id', 'language']).where('business_id', '=', businessId).execute();

  it('sends fresh codes in the language the page now shows, and keeps it; a resend naming none keeps the last', async () => {
    const businessId = await business('cy');
    const res = await t.call('patientSignUps', 'create', { businessId, signUp: form });
    expect(res.status).toBe(200);
    expect((await stored(businessId))[0]?.language).toBeNull();
    const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
    await t.db.deleteFrom('message_outbox').where('business_id', '=', businessId).execute();

    t.advance(onlineSignUpLimits.resendAfterSeconds * 1000);
    const switched = await t.call('patientSignUps', 'resendCodes', { language: 'en' }, { cookie });
    expect(switched.status).toBe(200);
    expect(await queued(businessId)).toEqual(expected(english, englishSubject));
    expect((await stored(businessId))[0]?.language).toBe('en');

    await t.db.deleteFrom('message_outbox').where('business_id', '=', businessId).execute();
    t.advance(onlineSignUpLimits.resendAfterSeconds * 1000);
    expect((await t.call('patientSignUps', 'resendCodes', {}, { cookie })).status).toBe(200);
    expect(await queued(businessId)).toEqual(expected(english, englishSubject));
    expect((await stored(businessId))[0]?.language).toBe('en');
  });

  it('refuses a language the page does not offer, storing and sending nothing', async () => {
    const businessId = await business('cy');
    const bad = await t.call('patientSignUps', 'create', { businessId, signUp: form, language: 'fr' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION');
    expect(bad.body.error.details).toEqual([
      expect.objectContaining({ path: 'language', message: 'Choose English or Cymraeg' }),
    ]);
    expect(await stored(businessId)).toEqual([]);
    expect(await queued(businessId)).toEqual([]);

    const res = await t.call('patientSignUps', 'create', { businessId, signUp: form, language: 'cy' });
    const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
    await t.db.deleteFrom('message_outbox').where('business_id', '=', businessId).execute();
    t.advance(onlineSignUpLimits.resendAfterSeconds * 1000);
    const resend = await t.call('patientSignUps', 'resendCodes', { language: 'fr' }, { cookie });
    expect(resend.status).toBe(400);
    expect(resend.body.error.code).toBe('VALIDATION');
    expect(await queued(businessId)).toEqual([]);
    expect((await stored(businessId))[0]?.language).toBe('cy');
  });

  it('keeps the language switched on the codes screen when the codes are checked; refuses one not offered', async () => {
    const businessId = await business('cy');
    const res = await t.call('patientSignUps', 'create', { businessId, signUp: form, language: 'cy' });
    const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
    const bad = await t.call('patientSignUps', 'verify', { emailCode: '000000', language: 'fr' }, { cookie });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([expect.objectContaining({ path: 'language' })]);
    expect((await stored(businessId))[0]?.language).toBe('cy');
    const checked = await t.call('patientSignUps', 'verify', { emailCode: '000000', language: 'en' }, { cookie });
    expect(checked.status).toBe(200);
    expect((await stored(businessId))[0]?.language).toBe('en');
    // Once staff made the patient, the sign-up is closed: a later switch changes neither.
    const { patientId } = await convert(businessId);
    expect((await t.call('patientSignUps', 'verify', { language: 'cy' }, { cookie })).status).toBe(200);
    expect((await stored(businessId))[0]?.language).toBe('en');
    const patient = await t.db.selectFrom('patients').select('language').where('id', '=', patientId).executeTakeFirst();
    expect(patient?.language).toBe('en');
  });

  /** The sign-up of `businessId` made a patient by staff, and that patient's kept language. */
  const convert = async (businessId: string) => {
    const [signUp] = await stored(businessId);
    const as = await support();
    const res = await t.call('signUps', 'convert', { id: signUp?.id, displayId: `P-${signUp?.id}` }, as);
    expect(res.status).toBe(200);
    const patientId: string = res.body.patient.id;
    const row = await t.db.selectFrom('patients').select('language').where('id', '=', patientId).executeTakeFirst();
    return { patientId, language: row?.language };
  };

  it('gives the patient an online sign-up becomes the language chosen on the page, and their next code follows it', async () => {
    const businessId = await business('bilingual');
    const as = await support();
    await enableWhatsApp(t, businessId, as);
    expect((await t.call('patientSignUps', 'create', { businessId, signUp: form, language: 'en' })).status).toBe(200);
    const { patientId, language } = await convert(businessId);
    expect(language).toBe('en');
    // At a bilingual business, a patient who chose English gets their next code in English alone.
    const body = await whatsAppOptInCodeText(t, patientId, as);
    expect(body).toStartWith('Your ');
    expect(body).not.toContain('Eich cod');
  });

  it('leaves the language of a patient made from a sign-up with no choice to the business: staff-entered or online', async () => {
    const staffEntered = await business('cy');
    expect(
      (await t.call('signUps', 'create', { businessId: staffEntered, signUp: form }, await support())).status,
    ).toBe(200);
    expect((await convert(staffEntered)).language).toBeNull();
    const online = await business('bilingual');
    expect((await t.call('patientSignUps', 'create', { businessId: online, signUp: form })).status).toBe(200);
    expect((await convert(online)).language).toBeNull();
  });
});
