import { afterAll, beforeAll, expect, it } from 'bun:test';
import { nhsLoginVectorsOfTrust } from '@medlocker/core';
import { systemActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { PATIENT_COOKIE } from '../../sessions/patient-sessions.ts';
import { describeApi, TEST_ORIGIN, type TestApi } from '../../testing/api.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { type NhsLoginIdp, startNhsLoginIdp } from '../../testing/identity-providers/nhs-login-idp.ts';
import { signInAtIdp } from '../../testing/identity-providers/test-idp.ts';
import { insertBusiness, nhsSettings, testPatient } from '../../testing/patients.ts';
import { createOrder } from '../orders/create.ts';

/*
 * NHS login against a local OpenID provider set up as NHS login is (private_key_jwt only, RS512 ID
 * tokens, vtr/vot, nhs_number and birthdate): the whole round trip, and every way it must be refused.
 */

const CALLBACK = `${TEST_ORIGIN}/api/auth/nhs-login/callback`;
const DOB = '1980-01-02'; // testPatient's
let idp: NhsLoginIdp;
beforeAll(async () => {
  idp = await startNhsLoginIdp(CALLBACK);
});
afterAll(() => idp.stop());

const configured = (base: AppDeps): Partial<AppDeps> => ({
  ...withTestAuth(),
  config: {
    ...base.config,
    nhsLogin: { issuer: idp.issuer, clientId: idp.clientId, privateKeyPem: idp.privateKeyPem },
  },
});

let barcodes = 0;

/** A business with NHS login on (display id the NHS number) and an order for its patient. */
async function estate(t: TestApi, options: { nhsLogin?: boolean; dateOfBirth?: string | null } = {}) {
  const businessId = await insertBusiness(t.db);
  await t.db
    .insertInto('business_feature_settings')
    .values({
      business_id: businessId,
      settings: JSON.stringify({ displayIdField: nhsSettings, nhsLogin: { enabled: options.nhsLogin ?? true } }),
      updated: 1,
    })
    .execute();
  const patient = testPatient(1, options.dateOfBirth === null ? { dateOfBirth: undefined } : {});
  const created = await t.call('patients', 'create', { businessId, patient }, asSupport);
  expect(created.status).toBe(200);
  const patientId = created.body.patient.id as string;
  const order = await createOrder(t.deps, systemActor('test'), { businessId, patientId, barcode: `NHS-${++barcodes}` });
  return { businessId, patientId, orderId: order.id, nhsNumber: patient.displayId };
}

/** Starts NHS login as the patient page does: the provider's address and this browser's one-time cookie. */
async function start(t: TestApi, orderId: string) {
  const res = await t.call('auth', 'startNhsLogin', { orderId });
  expect(res.status).toBe(200);
  const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('medlocker_nhs_login=')) ?? '').split(';')[0];
  return { authUrl: res.body.authUrl as string, cookie: cookie ?? '' };
}

const callback = (t: TestApi, url: URL, cookie: string) =>
  t.raw(`${url.pathname}${url.search}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });

const patientCookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${PATIENT_COOKIE}=`) && !c.includes('Max-Age=0'))
    ?.split(';')[0];

const audits = async (t: TestApi, action: string) =>
  (await t.db.selectFrom('audit_log').select(['entity_id', 'details']).where('action', '=', action).execute()).map(
    (a) => ({ ...a, details: typeof a.details === 'string' ? JSON.parse(a.details) : a.details }),
  );

describeApi(
  'NHS login for patients',
  (t) => {
    it('signs the patient in when the verified NHS number and date of birth match the order', async () => {
      const e = await estate(t);
      expect((await t.call('auth', 'patientSignInOptions', { orderId: e.orderId })).body).toEqual({ nhsLogin: true });
      const { authUrl, cookie } = await start(t, e.orderId);
      const url = new URL(authUrl);
      expect(url.origin).toBe(idp.issuer);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
      expect(url.searchParams.get('scope')).toBe('openid profile');
      expect(JSON.parse(url.searchParams.get('vtr') ?? '')).toEqual([...nhsLoginVectorsOfTrust]);
      expect(cookie).toMatch(/^medlocker_nhs_login=/);

      const back = await signInAtIdp(authUrl, `${e.nhsNumber}/${DOB}/P9.Cp.Cd`);
      expect(await idp.lastVtr()).toBe(JSON.stringify(nhsLoginVectorsOfTrust));
      const res = await callback(t, back, cookie);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/p/${e.orderId}`);
      const patient = patientCookieOf(res);
      expect(patient).toBeTruthy();
      expect(res.headers.getSetCookie().find((c) => c.startsWith(`${PATIENT_COOKIE}=`))).toContain('SameSite=Lax');
      const order = await t.call('patientOrders', 'get', { orderId: e.orderId }, { cookie: patient });
      expect(order.status).toBe(200);
      const stored = await t.db.selectFrom('patient_sessions').selectAll().where('order_id', '=', e.orderId).execute();
      expect(stored.map((s) => s.method)).toEqual(['nhsLogin']);
      const started = await audits(t, 'patient.session.start');
      expect(started.find((a) => a.entity_id === e.patientId)?.details).toMatchObject({ method: 'nhsLogin' });

      // The same callback again (a replayed code) finds its state used: no second session.
      const replay = await callback(t, back, cookie);
      expect(replay.headers.get('location')).toBe(`/p/${e.orderId}?nhsLogin=expired`);
      expect(patientCookieOf(replay)).toBeUndefined();
      const refused = await audits(t, 'patient.nhsLogin.refused');
      expect(refused.at(-1)?.details).toMatchObject({ reason: 'expired', state: 'unknown, used or expired' });
    });

    it('signs in on the NHS number alone when the pharmacy has no date of birth on record', async () => {
      const e = await estate(t, { dateOfBirth: null });
      const { authUrl, cookie } = await start(t, e.orderId);
      const res = await callback(t, await signInAtIdp(authUrl, `${e.nhsNumber}/1999-09-09/P9.Cp.Cd`), cookie);
      expect(res.headers.get('location')).toBe(`/p/${e.orderId}`);
      expect(patientCookieOf(res)).toBeTruthy();
    });

    it('tells a mismatch (another NHS number, or another birth date) and counts it as a wrong try', async () => {
      const e = await estate(t);
      for (const login of ['9990000018/1980-01-02/P9.Cp.Cd', `${e.nhsNumber}/1980-02-01/P9.Cp.Cd`]) {
        const { authUrl, cookie } = await start(t, e.orderId);
        const res = await callback(t, await signInAtIdp(authUrl, login), cookie);
        expect(res.headers.get('location')).toBe(`/p/${e.orderId}?nhsLogin=mismatch`);
        expect(patientCookieOf(res)).toBeUndefined();
      }
      const failed = (await audits(t, 'patient.verify.failed')).filter((a) => a.entity_id === e.orderId);
      expect(failed.map((a) => a.details)).toEqual([
        { method: 'nhsLogin', failures: 1, nhsNumber: false, dateOfBirth: true },
        { method: 'nhsLogin', failures: 2, nhsNumber: true, dateOfBirth: false },
      ]);
      // The same tries as the other ways: three wrong dates of birth now lock the link.
      for (let i = 0; i < 3; i++)
        await t.call('auth', 'verifyPatient', { orderId: e.orderId, dateOfBirth: '1970-01-01' });
      const locked = await t.call('auth', 'startNhsLogin', { orderId: e.orderId });
      expect(locked.status).toBe(429);
      expect(
        await t.db.selectFrom('patient_sessions').select('id').where('order_id', '=', e.orderId).execute(),
      ).toEqual([]);
    });

    it('refuses a vector of trust below P9 (no verified NHS number) without counting a try', async () => {
      const e = await estate(t);
      for (const vot of ['P5.Cp.Cd', 'P0.Cp']) {
        const { authUrl, cookie } = await start(t, e.orderId);
        const res = await callback(t, await signInAtIdp(authUrl, `${e.nhsNumber}/${DOB}/${vot}`), cookie);
        expect(res.headers.get('location')).toBe(`/p/${e.orderId}?nhsLogin=level`);
        expect(patientCookieOf(res)).toBeUndefined();
      }
      const refused = (await audits(t, 'patient.nhsLogin.refused')).filter((a) => a.entity_id === e.orderId);
      expect(refused.map((a) => a.details.vot)).toEqual(['P5.Cp.Cd', 'P0.Cp']);
      expect((await audits(t, 'patient.verify.failed')).filter((a) => a.entity_id === e.orderId)).toEqual([]);
    });

    it('refuses a callback in another browser, and one without a state', async () => {
      const e = await estate(t);
      const { authUrl, cookie } = await start(t, e.orderId);
      const back = await signInAtIdp(authUrl, `${e.nhsNumber}/${DOB}/P9.Cp.Cd`);
      const other = await callback(t, back, 'medlocker_nhs_login=someone-else');
      expect(other.headers.get('location')).toBe(`/p/${e.orderId}?nhsLogin=expired`);
      expect(patientCookieOf(other)).toBeUndefined();
      // Taken by the refused try: the right browser cannot use it either.
      expect((await callback(t, back, cookie)).headers.get('location')).toBe(`/p/${e.orderId}?nhsLogin=expired`);
      const none = await t.raw('/api/auth/nhs-login/callback?code=x', { redirect: 'manual' });
      expect(none.status).toBe(303);
      expect(none.headers.get('location')).toBe('/p?nhsLogin=expired');
    });

    it('answers a cancelled login at NHS login with its reason', async () => {
      const e = await estate(t);
      const { authUrl, cookie } = await start(t, e.orderId);
      const back = new URL(CALLBACK);
      back.searchParams.set('state', new URL(authUrl).searchParams.get('state') ?? '');
      back.searchParams.set('error', 'access_denied');
      const res = await callback(t, back, cookie);
      expect(res.headers.get('location')).toBe(`/p/${e.orderId}?nhsLogin=cancelled`);
    });

    it('refuses when the business has NHS login switched off, at the start and at the callback', async () => {
      const off = await estate(t, { nhsLogin: false });
      expect((await t.call('auth', 'patientSignInOptions', { orderId: off.orderId })).body).toEqual({
        nhsLogin: false,
      });
      const refused = await t.call('auth', 'startNhsLogin', { orderId: off.orderId });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(
        'NHS login is not available for this order. Confirm who you are another way.',
      );
      expect(refused.headers.getSetCookie().some((c) => c.startsWith('medlocker_nhs_login='))).toBe(false);

      // Switched off while the patient was at NHS login.
      const e = await estate(t);
      const { authUrl, cookie } = await start(t, e.orderId);
      const back = await signInAtIdp(authUrl, `${e.nhsNumber}/${DOB}/P9.Cp.Cd`);
      const saved = await t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        { businessId: e.businessId, settings: { nhsLogin: { enabled: false } } },
        asSupport,
      );
      expect(saved.status).toBe(200);
      const res = await callback(t, back, cookie);
      expect(res.headers.get('location')).toBe(`/p/${e.orderId}?nhsLogin=unavailable`);
      expect(patientCookieOf(res)).toBeUndefined();
    });

    it('404s an unknown order and offers it nothing', async () => {
      const orderId = Bun.randomUUIDv7();
      expect((await t.call('auth', 'patientSignInOptions', { orderId })).body).toEqual({ nhsLogin: false });
      expect((await t.call('auth', 'startNhsLogin', { orderId })).status).toBe(404);
      expect((await t.call('auth', 'startNhsLogin', { orderId: '' })).status).toBe(400);
    });

    it('is switched on only with the display id validated as the NHS number', async () => {
      const businessId = await insertBusiness(t.db);
      const on = { businessId, settings: { nhsLogin: { enabled: true } } };
      const refused = await t.call('businessSettings', 'updateBusinessFeatureSettings', on, asSupport);
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].path).toBe('settings.nhsLogin.enabled');
      const both = { businessId, settings: { nhsLogin: { enabled: true }, displayIdField: nhsSettings } };
      const saved = await t.call('businessSettings', 'updateBusinessFeatureSettings', both, asSupport);
      expect(saved.status).toBe(200);
      expect(saved.body.settings.nhsLogin).toEqual({ enabled: true });
      expect(saved.body.nhsLoginUnavailable).toBeNull();
      const unvalidated = { businessId, settings: { displayIdField: { ...nhsSettings, validateNhsNumber: false } } };
      const kept = await t.call('businessSettings', 'updateBusinessFeatureSettings', unvalidated, asSupport);
      expect(kept.status).toBe(400);
      expect(kept.body.error.details[0].path).toBe('settings.displayIdField.validateNhsNumber');
    });
  },
  configured,
);

describeApi(
  'NHS login without its configuration',
  (t) => {
    it('cannot be switched on, says why, and is offered to no order', async () => {
      const businessId = await insertBusiness(t.db, { displayIdField: nhsSettings });
      const read = await t.call('businessSettings', 'getBusinessFeatureSettings', { businessId }, asSupport);
      expect(read.body.nhsLoginUnavailable).toBe(
        'NHS login is not configured on this server (NHS_LOGIN_ISSUER, NHS_LOGIN_CLIENT_ID, NHS_LOGIN_PRIVATE_KEY)',
      );
      const on = { businessId, settings: { nhsLogin: { enabled: true } } };
      const refused = await t.call('businessSettings', 'updateBusinessFeatureSettings', on, asSupport);
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0]).toMatchObject({ path: 'settings.nhsLogin.enabled', id: 'NOT_ENABLED' });
      // A switch left on from before is of no use without the configuration.
      await t.db
        .updateTable('business_feature_settings')
        .set({ settings: JSON.stringify({ displayIdField: nhsSettings, nhsLogin: { enabled: true } }) })
        .where('business_id', '=', businessId)
        .execute();
      const patient = await t.call('patients', 'create', { businessId, patient: testPatient(2) }, asSupport);
      const order = await createOrder(t.deps, systemActor('test'), {
        businessId,
        patientId: patient.body.patient.id,
        barcode: 'NHS-OFF-1',
      });
      expect((await t.call('auth', 'patientSignInOptions', { orderId: order.id })).body).toEqual({ nhsLogin: false });
      expect((await t.call('auth', 'startNhsLogin', { orderId: order.id })).status).toBe(409);
    });
  },
  withTestAuth,
);
