import { expect, it } from 'bun:test';
import { PATIENT_COOKIE } from '../../sessions/patient-sessions.ts';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';
import { chargedOrder, chargingBusiness } from '../../testing/checkout.ts';
import { withTestAuth } from '../../testing/hub.ts';

const DOB = '1980-01-02'; // testPatient's

/** Every method a patient (or someone holding only a patient's link) can call. */
const patientMethods = [
  'auth/verifyPatient',
  'auth/verifySms',
  'auth/verifySmsCode',
  'auth/patientSession',
  'auth/listPatientMobile',
  'auth/addPatientMobile',
  'auth/removePatientMobile',
  'auth/endPatientSession',
  'patientOrders/list',
  'patientOrders/get',
  'checkout/createJudoPaymentSession',
  'checkout/completeJudoOrderPayment',
  'checkout/declareExemption',
] as const;

describeApi(
  'patient methods: what a browser or a script may send them',
  (t) => {
    async function signedIn() {
      const e = await chargingBusiness(t);
      const orderId = await chargedOrder(t, e);
      const res = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB });
      const set = res.headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`)) ?? '';
      return { ...e, orderId, cookie: set.split(';')[0] as string };
    }
    const post = (path: string, body: string, headers: Record<string, string>) =>
      t.raw(`/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, ...headers },
        body,
      });

    it('answers anything malformed with a 4xx error body, signed in or not, never a 500', async () => {
      const { orderId, cookie } = await signedIn();
      const bodies = [
        '{"orderId":',
        '[]',
        'null',
        '"x"',
        JSON.stringify({ orderId: 5, dateOfBirth: ['1980-01-02'], code: { a: 1 }, mobileNumber: 7 }),
        JSON.stringify({ orderId: 'x'.repeat(100_000), code: '1'.repeat(10_000), dateOfBirth: '1'.repeat(10_000) }),
        JSON.stringify({ orderId, dateOfBirth: '1980-02-30', code: '\u0000', mobileNumber: '\ud800' }),
        `{"orderId":"${orderId}","__proto__":{"admin":true}}`,
      ];
      const cookies = [cookie, '', `${PATIENT_COOKIE}=%E0%A4%A`, `${PATIENT_COOKIE}=${'a'.repeat(4000)}`];
      for (const method of patientMethods) {
        for (const body of bodies) {
          for (const c of cookies) {
            const res = await post(method, body, c ? { cookie: c } : {});
            const answer = await res.json();
            expect([method, res.status >= 400 && res.status < 500]).toEqual([method, true]);
            expect(typeof answer.error?.message).toBe('string');
          }
        }
      }
      // Nothing of it was a try at the link.
      expect(await t.db.selectFrom('patient_verifications').select('failures').execute()).toEqual([{ failures: 0 }]);
    });

    it('refuses cross-site calls carrying the patient cookie, changing nothing', async () => {
      const { cookie } = await signedIn();
      const add = JSON.stringify({ mobileNumber: '+447700900456' });
      for (const origin of ['https://evil.example', 'null']) {
        const res = await post('auth/addPatientMobile', add, { cookie, origin });
        expect(res.status).toBe(403);
        expect((await post('auth/endPatientSession', '{}', { cookie, origin })).status).toBe(403);
      }
      // A form can only send text/plain, urlencoded or multipart: refused before any cookie is read.
      const form = await post('auth/addPatientMobile', add, { cookie, 'content-type': 'text/plain' });
      expect(form.status).toBe(415);
      expect(await t.db.selectFrom('patient_mobiles').select('id').execute()).toEqual([]);
      expect(await t.db.selectFrom('patient_sessions').select('revoked_at').execute()).toEqual([{ revoked_at: null }]);
      expect((await post('patientOrders/list', '{}', { cookie })).status).toBe(200);
    });
  },
  withTestAuth,
);
