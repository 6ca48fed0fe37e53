import { expect, it } from 'bun:test';
import { describeApi } from '../testing/api.ts';
import { chargedOrder, chargingBusiness } from '../testing/checkout.ts';
import { withTestAuth } from '../testing/hub.ts';
import { PATIENT_COOKIE } from './patient-sessions.ts';
import { authPolicy } from './policy.ts';

/*
 * A cookie value no token of ours can be (a broken %-escape, left by a proxy, an extension or a
 * hand-edited cookie) is no cookie: it must neither lock anyone out with a 400 nor take the server down.
 */
const MANGLED = ['%', '%E0%A4%A', 'not a token'];
const DOB = '1980-01-02'; // testPatient's
const PASSWORD = 'a long enough password 1';

describeApi('staff session cookies that are not ours', (t) => {
  it('lets a browser with a mangled session cookie log in, and answers its other calls as not logged in', async () => {
    const user = await t.createUser({ password: PASSWORD, support: true });
    for (const value of MANGLED) {
      const cookie = `${authPolicy.sessionCookie}=${value}`;
      const login = await t.call('auth', 'login', { username: user.email, password: PASSWORD }, { cookie });
      expect([value, login.status, login.body.ok]).toEqual([value, 200, true]);
      expect(login.headers.getSetCookie().some((c) => c.startsWith(`${authPolicy.sessionCookie}=`))).toBe(true);
      const listed = await t.call('businesses', 'listBusinesses', {}, { cookie });
      expect([value, listed.status, listed.body.error?.code]).toEqual([value, 401, 'UNAUTHENTICATED']);
    }
  });

  it('keeps a good session when another cookie is mangled', async () => {
    const { cookie } = await t.signIn({ support: true });
    const listed = await t.call('businesses', 'listBusinesses', {}, { cookie: `${cookie}; ${PATIENT_COOKIE}=%` });
    expect(listed.status).toBe(200);
  });
});

describeApi(
  'patient session cookies that are not ours',
  (t) => {
    it('answers a mangled patient cookie as no session, and the identity check still works', async () => {
      const estate = await chargingBusiness(t);
      const orderId = await chargedOrder(t, estate);
      for (const value of MANGLED) {
        const cookie = `${PATIENT_COOKIE}=${value}`;
        const list = await t.call('patientOrders', 'list', {}, { cookie });
        expect([value, list.status]).toEqual([value, 401]);
        // An unknown order: the ordinary 404. (The check once ran before the cookie was read and threw:
        // its refusal was left unhandled, which ends a Bun process.)
        const unknown = await t.call(
          'auth',
          'verifyPatient',
          { orderId: 'no-such-order', dateOfBirth: DOB },
          { cookie },
        );
        expect([value, unknown.status, unknown.body.error?.code]).toEqual([value, 404, 'NOT_FOUND']);
        const proven = await t.call('auth', 'verifyPatient', { orderId, dateOfBirth: DOB }, { cookie });
        expect([value, proven.status]).toEqual([value, 200]);
        expect(proven.headers.getSetCookie().some((c) => c.startsWith(`${PATIENT_COOKIE}=`))).toBe(true);
      }
    });
  },
  withTestAuth,
);
