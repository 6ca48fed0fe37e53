import { expect, it } from 'bun:test';
import { patientAuthPolicy } from '@medlocker/core';
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
