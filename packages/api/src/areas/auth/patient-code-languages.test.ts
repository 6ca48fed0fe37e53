import { expect, it } from 'bun:test';
import type { PatientLanguage } from '@medlocker/core';
import { PATIENT_COOKIE } from '../../sessions/patient-sessions.ts';
import { describeApi } from '../../testing/api.ts';
import { chargedOrder, chargingBusiness } from '../../testing/checkout.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';

const DOB = '1980-01-02'; // testPatient's
const NEW = '+447700900456';

const verifyWelsh = "CODE yw eich cod MedLocker i weld eich archeb. Mae'n gweithio am 10 munud. Peidiwch â'i rannu.";
const verifyEnglish = 'CODE is your MedLocker code to see your order. It expires in 10 minutes. Do not share it.';
const mobileWelsh =
  "CODE yw eich cod MedLocker i ychwanegu'r ffôn symudol hwn. Mae'n gweithio am 10 munud. Peidiwch â'i rannu.";
const mobileEnglish = 'CODE is your MedLocker code to add this mobile. It expires in 10 minutes. Do not share it.';

describeApi(
  'the patient page’s texted codes, in the patient’s language',
  (t) => {
    /** A business sending its patients `language`, with an order of its patient (no charge: Wales has none). */
    async function estate(language?: PatientLanguage) {
      const e = await chargingBusiness(t, { judo: false });
      if (language) {
        const settings = { nation: 'wales', patientLanguage: language };
        const res = await t.call(
          'businessSettings',
          'updateBusinessFeatureSettings',
          { businessId: e.businessId, settings },
          asSupport,
        );
        expect(res.status).toBe(200);
      }
      return { ...e, orderId: await chargedOrder(t, e, {}), mobile: testPatient(1).mobileNumber as string };
    }

    /** The last text of `key` queued to a mobile, its code written CODE (the same code each time it is said). */
    const texted = async (mobile: string, key: string) => {
      const { body } = await t.db
        .selectFrom('message_outbox')
        .select('body')
        .where('recipient', '=', mobile)
        .where('template_key', '=', key)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(new Set(body.match(/\d{6}/g)).size).toBe(1);
      return body.replace(/\d{6}/g, 'CODE');
    };

    /** Signs in by date of birth and asks for a code to a new mobile. */
    async function addMobile(orderId: string) {
      const res = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB });
      const cookie = (res.headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`)) ?? '').split(';')[0];
      const sent = await t.call('auth', 'addPatientMobile', { mobileNumber: NEW }, { cookie });
      expect(sent.status).toBe(200);
    }

    const cases: [string, PatientLanguage | undefined, string, string][] = [
      ['an English one (by default)', undefined, verifyEnglish, mobileEnglish],
      ['an English one', 'en', verifyEnglish, mobileEnglish],
      ['a Welsh one', 'cy', verifyWelsh, mobileWelsh],
      [
        'a bilingual one, Welsh first',
        'bilingual',
        `${verifyWelsh}\n\n${verifyEnglish}`,
        `${mobileWelsh}\n\n${mobileEnglish}`,
      ],
    ];
    for (const [which, language, verify, mobile] of cases) {
      it(`texts the link’s code and the add-mobile code in the business’s language: ${which}`, async () => {
        const e = await estate(language);
        expect((await t.call('auth', 'verifySms', { orderId: e.orderId })).status).toBe(200);
        expect(await texted(e.mobile, 'patientVerifyCode')).toBe(verify);
        await addMobile(e.orderId);
        expect(await texted(NEW, 'patientMobileCode')).toBe(mobile);
      });
    }

    it('texts a patient who chose a language on their page in it alone, even at a bilingual business', async () => {
      const e = await estate('bilingual');
      await t.db.updateTable('patients').set({ language: 'en' }).where('id', '=', e.patientId).execute();
      expect((await t.call('auth', 'verifySms', { orderId: e.orderId })).status).toBe(200);
      expect(await texted(e.mobile, 'patientVerifyCode')).toBe(verifyEnglish);
      await t.db.updateTable('patients').set({ language: 'cy' }).where('id', '=', e.patientId).execute();
      await addMobile(e.orderId);
      expect(await texted(NEW, 'patientMobileCode')).toBe(mobileWelsh);
    });
  },
  withTestAuth,
);
