import { expect, it } from 'bun:test';
import type { PatientLanguage } from '@medlocker/core';
import { describeApi } from '../../testing/api.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { enableWhatsApp, insertBusiness, testPatient, whatsAppOptInCodeText } from '../../testing/patients.ts';

const welsh = (pharmacy: string) =>
  `Eich cod ${pharmacy} i gael negeseuon eich fferyllfa ar WhatsApp yw CODE. Mae'n gweithio am 15 munud. Os na wnaethoch ofyn amdano, gallwch anwybyddu'r neges hon.`;
const english = (pharmacy: string) =>
  `Your ${pharmacy} code to get your pharmacy messages on WhatsApp is CODE. It expires in 15 minutes. If you did not ask for it, you can ignore this message.`;

describeApi(
  'the WhatsApp opt-in code, in the patient’s language',
  (t) => {
    let n = 0;

    /** A business with WhatsApp on, sending its patients `language`, with one patient. */
    async function setUp(language?: PatientLanguage) {
      const businessId = await insertBusiness(t.db);
      await enableWhatsApp(t, businessId, asSupport);
      if (language) {
        const settings = { nation: 'wales', patientLanguage: language };
        const res = await t.call(
          'businessSettings',
          'updateBusinessFeatureSettings',
          { businessId, settings },
          asSupport,
        );
        expect(res.status).toBe(200);
      }
      const created = await t.call('patients', 'create', { businessId, patient: testPatient(++n) }, asSupport);
      expect(created.status).toBe(200);
      const business = await t.db
        .selectFrom('businesses')
        .select('name')
        .where('id', '=', businessId)
        .executeTakeFirst();
      return { patientId: created.body.patient.id as string, pharmacy: business?.name as string };
    }

    /** The code message queued to the patient, its code ('123 456', one per message) written CODE. */
    async function sent(patientId: string) {
      const body = await whatsAppOptInCodeText(t, patientId, asSupport);
      expect(new Set(body.match(/\d{3} \d{3}/g)).size).toBe(1);
      return body.replace(/\d{3} \d{3}/g, 'CODE');
    }

    const cases: [string, PatientLanguage | undefined, (pharmacy: string) => string][] = [
      ['an English one (by default)', undefined, english],
      ['a Welsh one', 'cy', welsh],
      ['a bilingual one, Welsh first', 'bilingual', (p) => `${welsh(p)}\n\n${english(p)}`],
    ];
    for (const [which, language, text] of cases) {
      it(`sends the code in the business’s language: ${which}`, async () => {
        const { patientId, pharmacy } = await setUp(language);
        expect(await sent(patientId)).toBe(text(pharmacy));
      });
    }

    it('sends a patient who chose English on their page the code in English alone, at a bilingual business', async () => {
      const { patientId, pharmacy } = await setUp('bilingual');
      await t.db.updateTable('patients').set({ language: 'en' }).where('id', '=', patientId).execute();
      expect(await sent(patientId)).toBe(english(pharmacy));
    });
  },
  withTestAuth,
);
