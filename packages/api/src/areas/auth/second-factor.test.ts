import { afterAll, beforeAll, expect, it, setDefaultTimeout } from 'bun:test';
import { Secret, TOTP } from 'otpauth';
import { listAudit } from '../../audit/audit.ts';
import { type MailCatcher, startMailCatcher } from '../../mail/mail-catcher.ts';
import { createSmtpMailer } from '../../mail/mailer.ts';
import { authMessages } from '../../sessions/policy.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { login, PASSWORD } from '../../testing/auth.ts';
import { validBusiness } from '../../testing/businesses.ts';

// Each login hashes with argon2id, which is slow on purpose.
setDefaultTimeout(30_000);

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher.stop();
});

/** The code an authenticator app shows for `secret` at the test clock's time. */
const codeOf = (t: TestApi, secret: string, at = t.deps.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

/** Adds an authenticator app through the session `cookie`; answers its secret and the first recovery codes. */
async function addApp(t: TestApi, cookie: string, name = 'Work phone') {
  const begun = await t.call('auth', 'beginTotpSetup', {}, { cookie });
  expect(begun.status).toBe(200);
  const { secret } = begun.body;
  const done = await t.call('auth', 'finishTotpSetup', { name, secret, code: codeOf(t, secret) }, { cookie });
  expect(done.status).toBe(200);
  return { secret, recoveryCodes: done.body.recoveryCodes ?? [], factorId: done.body.factor.id };
}

describeApi(
  'second factor at sign-in',
  (t) => {
    it('takes a support user of a fresh database from the password to setting up a factor, and nowhere else', async () => {
      await t.createUser({ email: 'sam@support.test', password: PASSWORD, support: true });
      const res = await login(t, 'sam@support.test');
      expect(res.body.ok).toBe(true);
      expect(res.body.result?.secondFactorSetupRequired).toBe(true);
      const cookie = res.cookie as string;
      const elsewhere = await t.call('businesses', 'listBusinesses', { archived: false }, { cookie });
      expect(elsewhere.status).toBe(403);
      expect(elsewhere.body.error.message).toBe(authMessages.setUpSecondFactor);
      expect((await t.call('auth', 'session', {}, { cookie })).body.secondFactorSetupRequired).toBe(true);
      const { recoveryCodes } = await addApp(t, cookie);
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      expect(recoveryCodes[0]).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      // Stored hashed only.
      const stored = await t.db.selectFrom('recovery_codes').select('code_hash').execute();
      expect(stored.map((r) => r.code_hash)).not.toContain(recoveryCodes[0]);
      const session = await t.call('auth', 'session', {}, { cookie });
      expect(session.body.secondFactorSetupRequired).toBeUndefined();
      expect((await t.call('businesses', 'listBusinesses', { archived: false }, { cookie })).status).toBe(200);
      const [row] = await t.db.selectFrom('second_factors').select('totp_secret').execute();
      expect(row?.totp_secret).toStartWith('v');
    });

    it('signs in with an app code, refuses the same code again, and keeps the waiting session from anything else', async () => {
      const user = await t.signIn({ email: 'tia@pharmacy.test', password: PASSWORD });
      const { secret } = await addApp(t, user.cookie);
      t.advance(30_000);
      const first = await login(t, 'tia@pharmacy.test');
      expect(first.body).toEqual({
        ok: false,
        reason: 'SecondFactorRequired',
        message: 'Enter the code from your authenticator app or a recovery code, or use your passkey.',
        secondFactor: { methods: ['totp', 'recovery'] },
      });
      const waiting = first.cookie as string;
      expect((await t.call('users', 'getUser', { id: user.userId }, { cookie: waiting })).status).toBe(401);
      const wrong = await t.call('auth', 'verifySecondFactor', { code: '000000' }, { cookie: waiting });
      expect(wrong.body.ok).toBe(false);
      const code = codeOf(t, secret);
      const right = await t.call('auth', 'verifySecondFactor', { code }, { cookie: waiting });
      expect(right.body.ok).toBe(true);
      const full = right.headers.getSetCookie().find((c) => c.startsWith('medlocker_session='));
      expect(full).toBeDefined();
      const fullCookie = (full as string).split(';')[0] as string;
      expect(fullCookie).not.toBe(waiting);
      expect((await t.call('users', 'getUser', { id: user.userId }, { cookie: fullCookie })).status).toBe(200);
      // The same code (same time step) a second time is refused.
      const again = await login(t, 'tia@pharmacy.test');
      const replay = await t.call('auth', 'verifySecondFactor', { code }, { cookie: again.cookie as string });
      expect(replay.body.ok).toBe(false);
      const audited = await listAudit(t.db, 'auth.login');
      expect(audited.at(-1)?.details).toMatchObject({ authMethods: ['pwd', 'otp'] });
      const factor = await t.db.selectFrom('second_factors').select('last_used_at').executeTakeFirstOrThrow();
      expect(factor.last_used_at).toBe(t.deps.now());
    });

    it('takes each recovery code once, in any case and without its dashes', async () => {
      const user = await t.signIn({ email: 'ria@pharmacy.test', password: PASSWORD });
      const { recoveryCodes } = await addApp(t, user.cookie);
      const [one = '', two = ''] = recoveryCodes;
      const a = await login(t, 'ria@pharmacy.test');
      const typed = one.replaceAll('-', '').toLowerCase();
      expect((await t.call('auth', 'verifySecondFactor', { code: typed }, { cookie: a.cookie })).body.ok).toBe(true);
      const b = await login(t, 'ria@pharmacy.test');
      expect((await t.call('auth', 'verifySecondFactor', { code: one }, { cookie: b.cookie })).body.ok).toBe(false);
      expect((await t.call('auth', 'verifySecondFactor', { code: two }, { cookie: b.cookie })).body.ok).toBe(true);
      const list = await t.call('auth', 'listSecondFactors', {}, { cookie: user.cookie });
      expect(list.body.recoveryCodesLeft).toBe(8);
    });

    it('counts second-factor tries towards the lockout, reserved before the check', async () => {
      const user = await t.signIn({ email: 'lou@pharmacy.test', password: PASSWORD });
      const { secret } = await addApp(t, user.cookie);
      t.advance(30_000);
      const waiting = (await login(t, 'lou@pharmacy.test')).cookie as string;
      const answers: (string | undefined)[] = [];
      for (let i = 0; i < 4; i++)
        answers.push((await t.call('auth', 'verifySecondFactor', { code: '000000' }, { cookie: waiting })).body.reason);
      // The password counted once and each wrong code once: the fifth failure locks the account.
      expect(answers).toEqual([
        'SecondFactorRequired',
        'SecondFactorRequired',
        'SecondFactorRequired',
        'TooManyAttempts',
      ]);
      // The waiting session ended with the lock: even the right code gets nowhere.
      const right = await t.call('auth', 'verifySecondFactor', { code: codeOf(t, secret) }, { cookie: waiting });
      expect(right.status).toBe(401);
      expect((await login(t, 'lou@pharmacy.test')).body.reason).toBe('TooManyAttempts');
      expect((await listAudit(t.db, 'auth.secondFactor.failed')).length).toBeGreaterThanOrEqual(4);
    });

    it('refuses to remove the last factor while policy requires one', async () => {
      const support = await t.signIn({ email: 'rem@support.test', support: true });
      const { factorId } = await addApp(t, support.cookie);
      const refused = await t.call('auth', 'removeSecondFactor', { id: factorId }, { cookie: support.cookie });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(authMessages.lastSecondFactor);
      t.advance(30_000);
      const second = await addApp(t, support.cookie, 'Spare phone');
      expect(second.recoveryCodes).toEqual([]);
      const removed = await t.call('auth', 'removeSecondFactor', { id: factorId }, { cookie: support.cookie });
      expect(removed.status).toBe(200);
      const list = await t.call('auth', 'listSecondFactors', {}, { cookie: support.cookie });
      expect(list.body.factors.map((f) => f.name)).toEqual(['Spare phone']);
      expect(list.body.required).toBe(true);
      // Nobody but support sees another user's factors.
      const other = await t.signIn({ email: 'other@pharmacy.test' });
      const peek = await t.call('auth', 'listSecondFactors', { userId: support.userId }, { cookie: other.cookie });
      expect(peek.status).toBe(404);
    });

    it("lets support reset a user's factors: audited, signed out everywhere, told by email", async () => {
      const user = await t.signIn({ email: 'lost@pharmacy.test', password: PASSWORD });
      await addApp(t, user.cookie);
      const support = await t.signIn({ support: true });
      const res = await t.call('auth', 'resetSecondFactors', { userId: user.userId }, { cookie: support.cookie });
      expect(res.body).toEqual({ ok: true, removed: 1 });
      expect(await t.db.selectFrom('second_factors').selectAll().execute()).toEqual([]);
      expect(await t.db.selectFrom('recovery_codes').selectAll().execute()).toEqual([]);
      expect((await t.call('users', 'getUser', { id: user.userId }, { cookie: user.cookie })).status).toBe(401);
      expect((await listAudit(t.db, 'auth.secondFactor.reset'))[0]?.entityId).toBe(user.userId);
      const mail = await catcher.waitFor('lost@pharmacy.test');
      expect(mail.subject).toBe('Your MedLocker second factors were reset');
      // Without a factor (and no policy), the password alone signs in again.
      expect((await login(t, 'lost@pharmacy.test')).body.ok).toBe(true);
      const pharmacy = await t.signIn();
      const denied = await t.call('auth', 'resetSecondFactors', { userId: user.userId }, { cookie: pharmacy.cookie });
      expect(denied.status).toBe(403);
    });

    it('requires a factor of the users of a business that asks for it, and of support only while the setting says so', async () => {
      const support = await t.signIn({ support: true });
      const created = await t.call('businesses', 'createBusiness', validBusiness(), { cookie: support.cookie });
      const businessId = created.body.business.id as string;
      await t.createUser({
        email: 'pat@pharmacy.test',
        password: PASSWORD,
        roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId }],
      });
      expect((await login(t, 'pat@pharmacy.test')).body.result?.secondFactorSetupRequired).toBeUndefined();
      const set = await t.call(
        'businessSettings',
        'updateBusinessFeatureSettings',
        { businessId, settings: { secondFactorRequired: true } },
        { cookie: support.cookie },
      );
      expect(set.status).toBe(200);
      expect((await login(t, 'pat@pharmacy.test')).body.result?.secondFactorSetupRequired).toBe(true);

      await t.createUser({ email: 'sue@support.test', password: PASSWORD, support: true });
      const off = await t.call(
        'globalSettings',
        'createOrUpdateGlobalSettings',
        { nhsPrescriptionCharge: 990, supportSecondFactorRequired: false },
        { cookie: support.cookie },
      );
      expect(off.body.settings?.supportSecondFactorRequired).toBe(false);
      const sue = await login(t, 'sue@support.test');
      expect(sue.body.ok).toBe(true);
      expect(sue.body.result?.secondFactorSetupRequired).toBeUndefined();
      expect((await listAudit(t.db, 'globalSettings.update')).map((a) => a.details)).toContainEqual({
        fields: ['supportSecondFactorRequired'],
        from: true,
        to: false,
      });
    });

    it('offers passkeys for the origin the console is served from', async () => {
      const user = await t.signIn();
      const res = await t.call('auth', 'beginPasskeySetup', {}, { cookie: user.cookie });
      expect(res.status).toBe(200);
      expect(res.body.options).toMatchObject({ rp: { id: 'medlocker.test', name: 'MedLocker' } });
      const bad = await t.call(
        'auth',
        'finishPasskeySetup',
        {
          name: 'Key',
          response: {
            id: 'AAAA',
            rawId: 'AAAA',
            response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
            clientExtensionResults: {},
            type: 'public-key',
          },
        },
        { cookie: user.cookie },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error.details[0].path).toBe('response');
      const blank = await t.call(
        'auth',
        'finishTotpSetup',
        { name: ' ', secret: 'x', code: '1' },
        { cookie: user.cookie },
      );
      expect(blank.status).toBe(400);
      expect(blank.body.error.details[0].path).toBe('name');
    });
  },
  () => ({ mailer: createSmtpMailer(catcher.url, 'MedLocker <no-reply@medlocker.test>') }),
);
