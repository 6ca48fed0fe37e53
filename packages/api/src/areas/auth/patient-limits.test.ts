import { expect, it } from 'bun:test';
import { patientAuthPolicy } from '@medlocker/core';
import { listAudit } from '../../audit/audit.ts';
import { PATIENT_COOKIE } from '../../sessions/patient-sessions.ts';
import { describeApi, TEST_ORIGIN, type TestApi } from '../../testing/api.ts';
import { chargedOrder, chargingBusiness } from '../../testing/checkout.ts';
import { asSupport, listen, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';

const MINUTE = 60_000;
const DOB = '1980-01-02'; // testPatient's
const WRONG = '1999-09-09';

/** The code of the last verification text queued for a mobile, read from the outbox as the gateway would. */
async function textedCode(t: TestApi, mobile: string): Promise<string> {
  const row = await t.db
    .selectFrom('message_outbox')
    .select('body')
    .where('recipient', '=', mobile)
    .where('template_key', '=', 'patientVerifyCode')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return /^(\d{6}) is your/.exec(row.body)?.[1] ?? 'none';
}

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

    it('follows an order moved to another patient: the old session loses it, a code texted before opens nothing', async () => {
      const e = await chargingBusiness(t);
      const orderId = await chargedOrder(t, e);
      const first = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB });
      const set = first.headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`)) ?? '';
      const as = { cookie: set.split(';')[0] as string };
      expect((await t.call('auth', 'verifySms', { orderId })).status).toBe(200);
      const code = await textedCode(t, testPatient(1).mobileNumber as string);
      // The pharmacy put the order on the wrong patient and moves it (no API does this today: a data fix).
      const other = await t.call(
        'patients',
        'create',
        { businessId: e.businessId, patient: testPatient(2) },
        asSupport,
      );
      await t.db.updateTable('orders').set({ patient_id: other.body.patient.id }).where('id', '=', orderId).execute();
      expect((await t.call('patientOrders', 'get', { orderId }, as)).status).toBe(404);
      expect((await t.call('patientOrders', 'list', {}, as)).body.orders).toEqual([]);
      // The code went to the first patient's phone: it must not open the second patient's orders.
      const late = await t.call('auth', 'verifySmsCode', { orderId, code });
      expect([late.status, late.body.error?.details?.[0]?.id]).toEqual([400, 'IDENTITY_NOT_CONFIRMED']);
      expect(await t.db.selectFrom('patient_sessions').select('patient_id').execute()).toEqual([
        { patient_id: e.patientId },
      ]);
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

describeApi(
  'patient identity checks: limits per client address, across every order',
  (t) => {
    /** A call over a real socket, so the server sees this test's address (127.0.0.1). */
    const post = async (url: string, method: string, body: Record<string, unknown>) => {
      const res = await fetch(`${url}/api/auth/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
        body: JSON.stringify(body),
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
    };

    it('stops an address after 30 wrong answers or unknown orders across any orders, checking nothing more', async () => {
      const e = await chargingBusiness(t);
      const [locked, other, fresh] = [await chargedOrder(t, e), await chargedOrder(t, e), await chargedOrder(t, e)];
      const server = listen(t);
      try {
        // 5 wrong dates lock one link; tries at the locked link check nothing and cost the address nothing.
        for (let i = 0; i < patientAuthPolicy.maxWrongTries; i++) {
          expect((await post(server.http, 'verifyPatient', { orderId: locked, dateOfBirth: WRONG })).status).toBe(400);
        }
        for (let i = 0; i < 10; i++) {
          expect((await post(server.http, 'verifySmsCode', { orderId: locked, code: '123456' })).status).toBe(429);
        }
        // A right answer costs nothing either.
        expect((await post(server.http, 'verifyPatient', { orderId: other, dateOfBirth: DOB })).status).toBe(200);
        // Unknown orders are guesses too, and so are wrong codes at another order.
        for (let i = 0; i < 21; i++) {
          expect((await post(server.http, 'verifyPatient', { orderId: `guess-${i}`, dateOfBirth: DOB })).status).toBe(
            404,
          );
        }
        for (let i = 0; i < 4; i++) {
          expect((await post(server.http, 'verifySmsCode', { orderId: other, code: '000000' })).status).toBe(400);
        }
        expect(5 + 21 + 4).toBe(patientAuthPolicy.addressWrongTries);
        // Now even the right date at an order never tried is refused, unchecked and uncounted on the order.
        const refused = await post(server.http, 'verifyPatient', { orderId: fresh, dateOfBirth: DOB });
        expect([refused.status, refused.retryAfter]).toEqual([429, '30']);
        expect(refused.body.error).toEqual({
          code: 'RATE_LIMITED',
          message: 'Too many tries from your network. Please try again in 1 minute, or contact the pharmacy.',
        });
        expect((await post(server.http, 'verifySmsCode', { orderId: fresh, code: '000000' })).status).toBe(429);
        const counted = await t.db.selectFrom('patient_verifications').select('order_id').execute();
        expect(counted.map((r) => r.order_id).sort()).toEqual([locked, other].sort());
        expect(await listAudit(t.db, 'patient.verify.throttled')).toHaveLength(2);
        // Another address (here the in-process app, which has none) is not held back.
        expect((await t.call('auth', 'verifyPatient', { orderId: fresh, dateOfBirth: DOB })).status).toBe(200);
        // One try's worth comes back every 30 seconds; a right answer gives its token back.
        t.advance(30_000);
        expect((await post(server.http, 'verifyPatient', { orderId: fresh, dateOfBirth: DOB })).status).toBe(200);
        expect((await post(server.http, 'verifyPatient', { orderId: fresh, dateOfBirth: DOB })).status).toBe(200);
        expect((await post(server.http, 'verifyPatient', { orderId: fresh, dateOfBirth: WRONG })).status).toBe(400);
        expect((await post(server.http, 'verifyPatient', { orderId: fresh, dateOfBirth: DOB })).status).toBe(429);
      } finally {
        server.stop();
      }
    });

    it('reserves each try before looking at it: of 40 guesses at once from one address, 30 are looked at', async () => {
      const server = listen(t);
      try {
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            post(server.http, 'verifyPatient', { orderId: `guess-${i}`, dateOfBirth: DOB }),
          ),
        );
        expect(answers.filter((a) => a.status === 404)).toHaveLength(patientAuthPolicy.addressWrongTries);
        expect(answers.filter((a) => a.status === 429)).toHaveLength(40 - patientAuthPolicy.addressWrongTries);
      } finally {
        server.stop();
      }
    });

    it('texts at most 10 codes an hour at one address’s asking, across orders; a text not sent costs nothing', async () => {
      const e = await chargingBusiness(t);
      const orders: string[] = [];
      for (let i = 0; i < patientAuthPolicy.addressCodesPerHour; i++) orders.push(await chargedOrder(t, e));
      const server = listen(t);
      try {
        expect((await post(server.http, 'verifySms', { orderId: 'guess-1' })).status).toBe(404);
        for (const orderId of orders.slice(0, -1)) {
          expect((await post(server.http, 'verifySms', { orderId })).status).toBe(200);
          // Asking again at once is refused by the order's own limit and texts nothing: no token taken.
          expect((await post(server.http, 'verifySms', { orderId })).status).toBe(429);
        }
        const [last] = orders.slice(-1) as [string];
        const refused = await post(server.http, 'verifySms', { orderId: last });
        expect([refused.status, refused.retryAfter]).toEqual([429, '360']);
        expect(refused.body.error.message).toBe(
          'Too many codes were asked for from your network. Please try again in 6 minutes, or contact the pharmacy.',
        );
        const texts = await t.db
          .selectFrom('message_outbox')
          .select('id')
          .where('template_key', '=', 'patientVerifyCode')
          .execute();
        expect(texts).toHaveLength(patientAuthPolicy.addressCodesPerHour - 1);
        t.advance(6 * MINUTE);
        expect((await post(server.http, 'verifySms', { orderId: last })).status).toBe(200);
      } finally {
        server.stop();
      }
    });
  },
  withTestAuth,
);
