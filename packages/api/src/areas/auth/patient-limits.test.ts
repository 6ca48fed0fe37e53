import { expect, it } from 'bun:test';
import { patientAuthPolicy } from '@medlocker/core';
import { PATIENT_COOKIE } from '../../auth/patient-sessions.ts';
import { withTestAuth } from '../../hubs/test-kit.ts';
import { describeApi } from '../../testing.ts';
import { chargedOrder, chargingBusiness } from '../checkout/test-helpers.ts';

const MINUTE = 60_000;
const DOB = '1980-01-02'; // testPatient's
const WRONG = '1999-09-09';

describeApi(
  'patient identity checks: the lock and the limits',
  (t) => {
    async function estate() {
      const e = await chargingBusiness(t);
      return { ...e, orderId: await chargedOrder(t, e) };
    }

    it('keeps a link locked for its full 15 minutes, however long before the first wrong try was', async () => {
      const { orderId } = await estate();
      expect((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: WRONG })).status).toBe(400);
      t.advance(14 * MINUTE);
      for (let i = 1; i < patientAuthPolicy.maxWrongTries; i++) {
        expect((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: WRONG })).status).toBe(400);
      }
      // The count's window (from the first try) ends a minute later; the lock (from the fifth) does not.
      t.advance(2 * MINUTE);
      const right = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB });
      expect([right.status, right.headers.get('retry-after')]).toEqual([429, String(13 * 60)]);
      expect((await t.call('auth', 'verifySms', { orderId })).status).toBe(429);
      t.advance(13 * MINUTE);
      expect((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB })).status).toBe(200);
    });
  },
  withTestAuth,
);

describeApi(
  'patient mobiles: the limits hold under concurrent calls',
  (t) => {
    it('adds at most 3 mobiles and texts at most 3 codes when many are asked for at once', async () => {
      const e = await chargingBusiness(t);
      const orderId = await chargedOrder(t, e);
      const res = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB });
      const set = res.headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`)) ?? '';
      const as = { cookie: set.split(';')[0] as string };
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.call('auth', 'addPatientMobile', { mobileNumber: `+4477009005${String(i).padStart(2, '0')}` }, as),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(patientAuthPolicy.maxAddedMobiles);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(10 - patientAuthPolicy.maxAddedMobiles);
      const texts = await t.db
        .selectFrom('message_outbox')
        .select('recipient')
        .where('template_key', '=', 'patientMobileCode')
        .execute();
      expect(texts).toHaveLength(patientAuthPolicy.maxAddedMobiles);
      const list = await t.call('auth', 'listPatientMobile', {}, as);
      expect(list.body.mobiles.filter((m: { onRecord: boolean }) => !m.onRecord)).toHaveLength(
        patientAuthPolicy.maxAddedMobiles,
      );
    });
  },
  withTestAuth,
);
