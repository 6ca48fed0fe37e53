import { expect, it } from 'bun:test';
import { patientAuthPolicy } from '@medlocker/core';
import { systemActor } from '../../context/actor.ts';
import { PATIENT_COOKIE } from '../../sessions/patient-sessions.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { chargedOrder, chargingBusiness } from '../../testing/checkout.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { testPatient } from '../../testing/patients.ts';
import { createOrder } from '../orders/create.ts';

const MINUTE = 60_000;
const DOB = '1980-01-02'; // testPatient's
const usedCode = 'That code has already been used. If this page has not opened your order, ask for a new code.';

/** The patient cookie a response set, as a request sends it back. */
function patientCookie(headers: Headers): string {
  const set = headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`));
  if (!set) throw new Error('no patient cookie was set');
  return set.split(';')[0] as string;
}

/** The code of the last verification text queued for a mobile, read from the outbox as the gateway would. */
async function textedCode(t: TestApi, mobile: string): Promise<string> {
  const row = await t.db
    .selectFrom('message_outbox')
    .select(['body', 'template_key'])
    .where('recipient', '=', mobile)
    .where('template_key', '=', 'patientVerifyCode')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return /^(\d{6}) is your/.exec(row.body)?.[1] ?? 'none';
}

describeApi(
  'patient session: proving who you are for an order',
  (t) => {
    async function estate() {
      const e = await chargingBusiness(t);
      const orderId = await chargedOrder(t, e);
      return { ...e, orderId, mobile: testPatient(1).mobileNumber as string };
    }

    it('starts a patient session on the right date of birth, in its own Lax, httpOnly cookie', async () => {
      const { orderId, patientId } = await estate();
      const res = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        expires: t.deps.now() + 24 * 60 * MINUTE,
        idleExpires: t.deps.now() + 30 * MINUTE,
        givenName: 'Given1',
      });
      const set = res.headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`)) ?? '';
      expect(set).toContain('HttpOnly');
      expect(set).toContain('SameSite=Lax');
      expect(set).toContain('Max-Age=86400');
      expect(res.headers.getSetCookie().some((c) => c.startsWith('medlocker_session='))).toBe(false);
      const cookie = patientCookie(res.headers);
      const session = await t.call('auth', 'patientSession', {}, { cookie });
      expect(session.body).toMatchObject({ givenName: 'Given1' });
      const list = await t.call('patientOrders', 'list', {}, { cookie });
      expect(list.body.orders.map((o: { id: string }) => o.id)).toEqual([orderId]);
      const stored = await t.db.selectFrom('patient_sessions').selectAll().executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ patient_id: patientId, order_id: orderId, method: 'dateOfBirth' });
      expect(stored.token_hash).not.toBe(cookie.split('=')[1]);
    });

    it('is Secure over https', async () => {
      const { orderId } = await estate();
      const res = await t.app.handle(
        new Request('https://medlocker.test/api/auth/verifyPatient', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'https://medlocker.test' },
          body: JSON.stringify({ orderId, dateOfBirth: DOB }),
        }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().find((c) => c.startsWith(PATIENT_COOKIE))).toContain('Secure');
    });

    it('gives a wrong date, and a patient with none on record, the same answer, counting down the tries', async () => {
      const { orderId, businessId } = await estate();
      const wrong = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: '1980-02-01' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.details).toEqual([
        {
          path: 'dateOfBirth',
          id: 'IDENTITY_NOT_CONFIRMED',
          message:
            'We could not confirm your details. You have 4 tries left before this link is locked for 15 minutes.',
        },
      ]);
      expect(wrong.headers.getSetCookie()).toEqual([]);
      const created = await t.call('patients', 'create', { businessId, patient: testPatient(2) }, asSupport);
      await t.db
        .updateTable('patients')
        .set({ date_of_birth: null })
        .where('id', '=', created.body.patient.id)
        .execute();
      const undated = await createOrder(t.deps, systemActor('test'), {
        businessId,
        patientId: created.body.patient.id,
        barcode: 'RX-UNDATED',
      });
      const none = await t.call('auth', 'verifyPatient', { orderId: undated.id, dateOfBirth: '1980-02-01' });
      expect([none.status, none.body.error.details[0].message]).toEqual([400, wrong.body.error.details[0].message]);
    });

    it('answers 404 for an unknown order and for a deleted patient’s, and 400 for a malformed date, uncounted', async () => {
      const { orderId, patientId } = await estate();
      expect((await t.call('auth', 'verifyPatient', { orderId: 'no-such-order', dateOfBirth: DOB })).status).toBe(404);
      expect((await t.call('auth', 'verifySms', { orderId: 'no-such-order' })).status).toBe(404);
      const bad = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: '02/01/1980' });
      expect([bad.status, bad.body.error.details[0].path]).toEqual([400, 'dateOfBirth']);
      expect(await t.db.selectFrom('patient_verifications').selectAll().execute()).toEqual([]);
      await t.db.updateTable('patients').set({ deleted_at: t.deps.now() }).where('id', '=', patientId).execute();
      expect((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB })).status).toBe(404);
    });

    it('locks the link after 5 wrong tries across dates and codes, even for the right date, until 15 minutes pass', async () => {
      const { orderId, mobile } = await estate();
      expect((await t.call('auth', 'verifySms', { orderId })).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        expect((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: '1999-09-09' })).status).toBe(400);
      }
      const code = await textedCode(t, mobile);
      const otherCode = code === '000000' ? '000001' : '000000';
      expect((await t.call('auth', 'verifySmsCode', { orderId, code: otherCode })).status).toBe(400);
      const last = await t.call('auth', 'verifySmsCode', { orderId, code: otherCode });
      expect(last.body.error.message).toBe(
        'That code is wrong or has expired. For your security this link is now locked for 15 minutes.',
      );
      const right = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB });
      expect(right.status).toBe(429);
      expect(right.body.error.message).toBe(
        'Too many wrong tries: for your security this link is locked. Please try again in 15 minutes.',
      );
      expect(right.headers.get('retry-after')).toBe('900');
      expect((await t.call('auth', 'verifySmsCode', { orderId, code })).status).toBe(429);
      expect((await t.call('auth', 'verifySms', { orderId })).status).toBe(429);
      t.advance(patientAuthPolicy.lockMinutes * MINUTE);
      expect((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB })).status).toBe(200);
    });

    it('reserves each try before checking it: of 12 wrong tries at once, only 5 are checked', async () => {
      const { orderId } = await estate();
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => t.call('auth', 'verifyPatient', { orderId, dateOfBirth: '1999-09-09' })),
      );
      expect(answers.filter((a) => a.status === 400)).toHaveLength(patientAuthPolicy.maxWrongTries);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(12 - patientAuthPolicy.maxWrongTries);
    });

    it('a right answer starts the count again', async () => {
      const { orderId } = await estate();
      for (let i = 0; i < 4; i++) await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: '1999-09-09' });
      expect((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB })).status).toBe(200);
      const wrong = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: '1999-09-09' });
      expect(wrong.body.error.message).toContain('You have 4 tries left');
    });

    it('texts a 6-digit code to the patient’s mobile through the outbox; the code works once, for 10 minutes', async () => {
      const { orderId, mobile, patientId } = await estate();
      const sent = await t.call('auth', 'verifySms', { orderId });
      expect(sent.body).toEqual({ sent: true, mobileEndings: [mobile.slice(-3)], expiresInMinutes: 10 });
      const queued = await t.db
        .selectFrom('message_outbox')
        .selectAll()
        .where('template_key', '=', 'patientVerifyCode')
        .execute();
      expect(queued).toHaveLength(1);
      expect(queued[0]).toMatchObject({ channel: 'sms', recipient: mobile, patient_id: patientId, order_id: null });
      const jobs = await t.db.selectFrom('jobs').select('type').where('type', '=', 'message.send').execute();
      expect(jobs.length).toBeGreaterThan(0);
      const code = await textedCode(t, mobile);
      expect(code).toMatch(/^\d{6}$/);
      // Only a hash of it is kept with the order's verification.
      const row = await t.db.selectFrom('patient_verifications').selectAll().executeTakeFirstOrThrow();
      expect(row.code_hash).not.toContain(code);
      const ok = await t.call('auth', 'verifySmsCode', { orderId, code });
      expect(ok.status).toBe(200);
      const cookie = patientCookie(ok.headers);
      expect((await t.call('patientOrders', 'get', { orderId }, { cookie })).status).toBe(200);
      const again = await t.call('auth', 'verifySmsCode', { orderId, code });
      expect([again.status, again.body.error.message]).toEqual([409, usedCode]);
    });

    it('counts right codes sent at once as right: one session, the others told it is used, no try lost', async () => {
      const { orderId, mobile } = await estate();
      await t.call('auth', 'verifySms', { orderId });
      const code = await textedCode(t, mobile);
      const answers = await Promise.all(
        Array.from({ length: 3 }, () => t.call('auth', 'verifySmsCode', { orderId, code })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
      for (const lost of answers.filter((a) => a.status === 409)) expect(lost.body.error.message).toBe(usedCode);
      const wrong = await t.call('auth', 'verifySmsCode', { orderId, code: code === '000000' ? '000001' : '000000' });
      expect(wrong.body.error.message).toContain('You have 4 tries left');
    });

    it('refuses a code after 10 minutes, and texts at most one a minute and five an hour', async () => {
      const { orderId, mobile } = await estate();
      await t.call('auth', 'verifySms', { orderId });
      const code = await textedCode(t, mobile);
      const soon = await t.call('auth', 'verifySms', { orderId });
      expect(soon.status).toBe(429);
      expect(soon.body.error.message).toBe(
        'A code was sent a moment ago. Please wait 60 seconds before asking for another.',
      );
      t.advance(patientAuthPolicy.codeTtlMinutes * MINUTE);
      expect((await t.call('auth', 'verifySmsCode', { orderId, code })).status).toBe(400);
      for (let i = 0; i < 4; i++) {
        expect((await t.call('auth', 'verifySms', { orderId })).status).toBe(200);
        t.advance(MINUTE);
      }
      const sixth = await t.call('auth', 'verifySms', { orderId });
      expect(sixth.status).toBe(429);
      expect(sixth.body.error.message).toContain('Too many codes were sent for this order');
      // A new code replaces the last one.
      const latest = await textedCode(t, mobile);
      expect((await t.call('auth', 'verifySmsCode', { orderId, code: latest })).status).toBe(200);
    });

    it('will not text a patient without a mobile', async () => {
      const { orderId, patientId } = await estate();
      await t.db.updateTable('patients').set({ mobile_number: null }).where('id', '=', patientId).execute();
      const res = await t.call('auth', 'verifySms', { orderId });
      expect([res.status, res.body.error.details[0].id]).toEqual([409, 'NO_MOBILE']);
      expect(await t.db.selectFrom('message_outbox').selectAll().execute()).toEqual([]);
    });

    it('times out after 30 idle minutes, moves on with use, and never outlives 24 hours', async () => {
      const { orderId } = await estate();
      const cookie = patientCookie((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB })).headers);
      for (let i = 0; i < 3; i++) {
        t.advance(25 * MINUTE);
        expect((await t.call('patientOrders', 'list', {}, { cookie })).status).toBe(200);
      }
      t.advance(31 * MINUTE);
      const late = await t.call('patientOrders', 'list', {}, { cookie });
      expect([late.status, late.body.error.message]).toEqual([
        401,
        'Your session has timed out. Please confirm who you are again',
      ]);
      const fresh = patientCookie((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB })).headers);
      for (let i = 0; i < 60; i++) {
        t.advance(25 * MINUTE);
        const res = await t.call('auth', 'patientSession', {}, { cookie: fresh });
        if (res.status !== 200) {
          expect(res.status).toBe(401);
          expect(i).toBe(57); // 58 × 25 min = 24 h 10 min: past the absolute end
          return;
        }
      }
      throw new Error('the session outlived 24 hours');
    });

    it('ends on endPatientSession, which clears the cookie', async () => {
      const { orderId } = await estate();
      const cookie = patientCookie((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB })).headers);
      const end = await t.call('auth', 'endPatientSession', {}, { cookie });
      expect(end.status).toBe(200);
      expect(end.headers.getSetCookie().find((c) => c.startsWith(PATIENT_COOKIE))).toContain('Max-Age=0');
      expect((await t.call('patientOrders', 'list', {}, { cookie })).status).toBe(401);
      expect((await t.call('auth', 'endPatientSession', {})).status).toBe(200);
    });

    it('ends a session whose patient the pharmacy deleted, and hides texted codes on the Messages tab', async () => {
      const { orderId, patientId, businessId } = await estate();
      await t.call('auth', 'verifySms', { orderId });
      const outbox = await t.call('messages', 'listOutbox', { businessId }, asSupport);
      const texted = outbox.body.messages.filter((m: { templateKey: string }) => m.templateKey === 'patientVerifyCode');
      expect(texted).toHaveLength(1);
      expect(texted[0]?.body).toBeNull();
      const cookie = patientCookie((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB })).headers);
      await t.db.updateTable('patients').set({ deleted_at: t.deps.now() }).where('id', '=', patientId).execute();
      expect((await t.call('patientOrders', 'list', {}, { cookie })).status).toBe(401);
    });

    it('keeps patient and staff sessions apart: neither cookie opens the other’s methods', async () => {
      const { orderId } = await estate();
      const cookie = patientCookie((await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB })).headers);
      expect((await t.call('orders', 'get', { id: orderId }, { cookie })).status).toBe(401);
      expect((await t.call('patientOrders', 'list', {}, asSupport)).status).toBe(403);
      expect((await t.call('patientOrders', 'list', {})).status).toBe(401);
      // Both cookies (a pharmacist opening a patient link in their console's browser): the patient's on patient methods.
      const both = { cookie: `${asSupport.cookie}; ${cookie}` };
      expect((await t.call('patientOrders', 'get', { orderId }, both)).status).toBe(200);
      expect((await t.call('orders', 'get', { id: orderId }, both)).status).toBe(200);
    });
  },
  withTestAuth,
);

describeApi(
  'patient session: the mobiles a patient may use',
  (t) => {
    const NEW = '+447700900456';
    async function signedIn() {
      const e = await chargingBusiness(t);
      const orderId = await chargedOrder(t, e);
      const res = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB });
      return { ...e, orderId, as: { cookie: patientCookie(res.headers) } };
    }
    const codeTo = async (mobile: string, key: string) =>
      /^(\d{6}) is your/.exec(
        (
          await t.db
            .selectFrom('message_outbox')
            .select('body')
            .where('recipient', '=', mobile)
            .where('template_key', '=', key)
            .orderBy('id', 'desc')
            .executeTakeFirstOrThrow()
        ).body,
      )?.[1] ?? 'none';

    it('lists the mobile on record, adds one proven by a code texted to it, and the link’s codes go to both', async () => {
      const { orderId, as } = await signedIn();
      const onRecord = testPatient(1).mobileNumber as string;
      expect((await t.call('auth', 'listPatientMobile', {}, as)).body).toEqual({
        mobiles: [{ mobileNumber: onRecord, onRecord: true, verified: true }],
      });
      const sent = await t.call('auth', 'addPatientMobile', { mobileNumber: '07700 900456' }, as);
      expect(sent.body).toEqual({
        added: false,
        mobiles: [
          { mobileNumber: onRecord, onRecord: true, verified: true },
          { mobileNumber: NEW, onRecord: false, verified: false },
        ],
      });
      const code = await codeTo(NEW, 'patientMobileCode');
      const wrong = await t.call(
        'auth',
        'addPatientMobile',
        { mobileNumber: NEW, code: code === '000000' ? '000001' : '000000' },
        as,
      );
      expect([wrong.status, wrong.body.error.details[0].id]).toEqual([400, 'IDENTITY_NOT_CONFIRMED']);
      const added = await t.call('auth', 'addPatientMobile', { mobileNumber: NEW, code }, as);
      expect(added.body.added).toBe(true);
      expect(added.body.mobiles[1]).toEqual({ mobileNumber: NEW, onRecord: false, verified: true });
      // A fresh browser on the new phone: the link's code reaches it too.
      const link = await t.call('auth', 'verifySms', { orderId });
      expect(link.body.mobileEndings).toEqual([onRecord.slice(-3), '456']);
      const viaNew = await codeTo(NEW, 'patientVerifyCode');
      expect((await t.call('auth', 'verifySmsCode', { orderId, code: viaNew })).status).toBe(200);
    });

    it('confirms an added mobile once when its right code is sent several times at once', async () => {
      const { as } = await signedIn();
      await t.call('auth', 'addPatientMobile', { mobileNumber: NEW }, as);
      const code = await codeTo(NEW, 'patientMobileCode');
      const answers = await Promise.all(
        Array.from({ length: 3 }, () => t.call('auth', 'addPatientMobile', { mobileNumber: NEW, code }, as)),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers.filter((a) => a.body.added)).toHaveLength(1);
      for (const a of answers)
        expect(a.body.mobiles[1]).toEqual({ mobileNumber: NEW, onRecord: false, verified: true });
    });

    it('spends an added mobile’s code after 5 wrong tries, refuses removing the one on record, removes an added one', async () => {
      const { as } = await signedIn();
      await t.call('auth', 'addPatientMobile', { mobileNumber: NEW }, as);
      const code = await codeTo(NEW, 'patientMobileCode');
      const wrongCode = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 5; i++) {
        expect((await t.call('auth', 'addPatientMobile', { mobileNumber: NEW, code: wrongCode }, as)).status).toBe(400);
      }
      expect((await t.call('auth', 'addPatientMobile', { mobileNumber: NEW, code }, as)).status).toBe(400);
      const onRecord = await t.call('auth', 'removePatientMobile', { mobileNumber: testPatient(1).mobileNumber }, as);
      expect(onRecord.status).toBe(409);
      const removed = await t.call('auth', 'removePatientMobile', { mobileNumber: NEW }, as);
      expect(removed.body.mobiles.map((m: { mobileNumber: string }) => m.mobileNumber)).toEqual([
        testPatient(1).mobileNumber,
      ]);
      expect((await t.call('auth', 'removePatientMobile', { mobileNumber: NEW }, as)).status).toBe(404);
      const bad = await t.call('auth', 'addPatientMobile', { mobileNumber: '12345' }, as);
      expect([bad.status, bad.body.error.details[0].id]).toEqual([400, 'INVALID_UK_MOBILE']);
      expect((await t.call('auth', 'listPatientMobile', {})).status).toBe(401);
    });

    it('texts at most 5 add-mobile codes an hour, however the mobiles are added and removed', async () => {
      const { as } = await signedIn();
      for (let i = 0; i < 5; i++) {
        expect((await t.call('auth', 'addPatientMobile', { mobileNumber: NEW }, as)).status).toBe(200);
        expect((await t.call('auth', 'removePatientMobile', { mobileNumber: NEW }, as)).status).toBe(200);
      }
      const sixth = await t.call('auth', 'addPatientMobile', { mobileNumber: NEW }, as);
      expect([sixth.status, sixth.headers.get('retry-after')]).toEqual([429, '3600']);
      // An hour on, the session kept alive meanwhile: codes may be sent again.
      for (let i = 0; i < 3; i++) {
        t.advance(20 * 60_000);
        expect((await t.call('auth', 'listPatientMobile', {}, as)).status).toBe(200);
      }
      expect((await t.call('auth', 'addPatientMobile', { mobileNumber: NEW }, as)).status).toBe(200);
    });
  },
  withTestAuth,
);
