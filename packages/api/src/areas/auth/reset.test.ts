import { afterAll, beforeAll, expect, it, setDefaultTimeout } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { type MailCatcher, startMailCatcher } from '../../mail/mail-catcher.ts';
import { createSmtpMailer } from '../../mail/mailer.ts';
import { authPolicy } from '../../sessions/policy.ts';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';
import { login, PASSWORD } from '../../testing/auth.ts';

// Each login hashes with argon2id, which is slow on purpose; a loaded machine needs more than 5 s a test.
setDefaultTimeout(30_000);

const INVALID_LINK = 'You have clicked on an expired or invalid link. Please try again.';
const NEW_PASSWORD = 'a brand new passphrase';

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher.stop();
});

/** The token of the reset link in a caught email. */
const tokenIn = (text: string): string => {
  const match = /\/auth\/reset#token=([A-Za-z0-9_%-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no reset link in: ${text}`);
  return decodeURIComponent(match[1]);
};

describeApi(
  'password reset by email',
  (t) => {
    it('emails a link through SMTP that sets a new password once, and ends every session', async () => {
      const { userId } = await t.createUser({ email: 'Rose@Pharmacy.test', password: PASSWORD });
      const before = await login(t, 'rose@pharmacy.test');
      const begun = await t.call('auth', 'beginResetPassword', { email: 'ROSE@pharmacy.test', frontEnd: 'support' });
      expect<unknown>(begun.body).toEqual({ ok: true });

      const mail = await catcher.waitFor('rose@pharmacy.test');
      expect(mail.subject).toBe('Reset your MedLocker password');
      expect(mail.text).toContain(`${TEST_ORIGIN}/auth/reset#token=`);
      const token = tokenIn(mail.text);

      const done = await t.call('auth', 'completeResetPassword', { password: NEW_PASSWORD, token });
      expect(done.status).toBe(200);
      expect<unknown>(done.body).toEqual({ ok: true });
      expect((await t.call('auth', 'session', {}, { cookie: before.cookie as string })).status).toBe(401);
      expect((await login(t, 'rose@pharmacy.test')).body.reason).toBe('InvalidCredentials');
      expect((await login(t, 'rose@pharmacy.test', NEW_PASSWORD)).body.ok).toBe(true);

      const again = await t.call('auth', 'completeResetPassword', { password: 'yet another passphrase', token });
      expect(again.status).toBe(400);
      expect(again.body.error.message).toBe(INVALID_LINK);
      const audited = await listAudit(t.db, 'auth.password.reset');
      expect(audited.map((a) => a.entityId)).toEqual([userId]);
      expect(JSON.stringify(await listAudit(t.db))).not.toContain(token);
    });

    it('answers the same for an unknown email, and sends nothing', async () => {
      await t.createUser({ email: 'sam@pharmacy.test', password: PASSWORD });
      const known = await t.call('auth', 'beginResetPassword', { email: 'sam@pharmacy.test', frontEnd: 'support' });
      const unknown = await t.call('auth', 'beginResetPassword', {
        email: 'nobody@pharmacy.test',
        frontEnd: 'support',
      });
      expect(unknown.status).toBe(known.status);
      expect<unknown>(unknown.body).toEqual(known.body);
      await catcher.waitFor('sam@pharmacy.test');
      await expect(catcher.waitFor('nobody@pharmacy.test', 300)).rejects.toThrow();
    });

    it('refuses a link after an hour', async () => {
      await t.createUser({ email: 'tom@pharmacy.test', password: PASSWORD });
      await t.call('auth', 'beginResetPassword', { email: 'tom@pharmacy.test', frontEnd: 'support' });
      const token = tokenIn((await catcher.waitFor('tom@pharmacy.test')).text);
      t.advance(authPolicy.resetTokenMs);
      const res = await t.call('auth', 'completeResetPassword', { password: NEW_PASSWORD, token });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(INVALID_LINK);
      expect((await login(t, 'tom@pharmacy.test')).body.ok).toBe(true);
    });

    it('voids an earlier link when a new one is sent', async () => {
      await t.createUser({ email: 'una@pharmacy.test', password: PASSWORD });
      await t.call('auth', 'beginResetPassword', { email: 'una@pharmacy.test', frontEnd: 'support' });
      const first = tokenIn((await catcher.waitFor('una@pharmacy.test')).text);
      t.advance(61_000);
      await t.call('auth', 'beginResetPassword', { email: 'una@pharmacy.test', frontEnd: 'support' });
      const second = tokenIn((await catcher.waitFor('una@pharmacy.test')).text);
      expect((await t.call('auth', 'completeResetPassword', { password: NEW_PASSWORD, token: first })).status).toBe(
        400,
      );
      expect((await t.call('auth', 'completeResetPassword', { password: NEW_PASSWORD, token: second })).status).toBe(
        200,
      );
    });

    it('refuses a password shorter than 12 characters, and keeps the link usable', async () => {
      await t.createUser({ email: 'val@pharmacy.test', password: PASSWORD });
      await t.call('auth', 'beginResetPassword', { email: 'val@pharmacy.test', frontEnd: 'support' });
      const token = tokenIn((await catcher.waitFor('val@pharmacy.test')).text);
      const short = await t.call('auth', 'completeResetPassword', { password: 'elevenchars', token });
      expect(short.status).toBe(400);
      expect(short.body.error.details).toEqual([
        { path: 'password', id: 'PASSWORD_TOO_SHORT', message: 'Please enter at least 12 characters' },
      ]);
      expect((await t.call('auth', 'completeResetPassword', { password: NEW_PASSWORD, token })).status).toBe(200);
    });

    it('refuses an unknown token with the SPEC message', async () => {
      const res = await t.call('auth', 'completeResetPassword', { password: NEW_PASSWORD, token: 'made-up' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(INVALID_LINK);
    });

    it('clears a forced reset and a lockout once the password is set', async () => {
      await t.createUser({ email: 'wes@pharmacy.test', password: PASSWORD, forceReset: true });
      for (let i = 0; i < 5; i++) await login(t, 'wes@pharmacy.test', 'wrong');
      await t.call('auth', 'beginResetPassword', { email: 'wes@pharmacy.test', frontEnd: 'support' });
      const token = tokenIn((await catcher.waitFor('wes@pharmacy.test')).text);
      await t.call('auth', 'completeResetPassword', { password: NEW_PASSWORD, token });
      expect((await login(t, 'wes@pharmacy.test', NEW_PASSWORD)).body.ok).toBe(true);
    });

    it('does not flood a mailbox: one link a minute', async () => {
      await t.createUser({ email: 'xena@pharmacy.test', password: PASSWORD });
      for (let i = 0; i < 3; i++)
        await t.call('auth', 'beginResetPassword', { email: 'xena@pharmacy.test', frontEnd: 'support' });
      await catcher.waitFor('xena@pharmacy.test');
      await expect(catcher.waitFor('xena@pharmacy.test', 300)).rejects.toThrow();
    });
  },
  () => ({ mailer: createSmtpMailer(catcher.url, 'MedLocker <no-reply@medlocker.test>') }),
);

describeApi(
  'registration',
  (t) => {
    it('is offered on the login page when configuration allows it', async () => {
      expect((await t.call('auth', 'config', {})).body.allowRegistration).toBe(true);
    });

    it('creates an account that sets its password through the emailed link', async () => {
      const res = await t.call('auth', 'register', {
        email: 'Yan@Pharmacy.test',
        givenName: 'Yan',
        familyName: 'Ng',
        frontEnd: 'pharmacy',
      });
      expect<unknown>(res.body).toEqual({ ok: true });
      const mail = await catcher.waitFor('yan@pharmacy.test');
      expect(mail.subject).toBe('Finish setting up your MedLocker account');
      // Until then, no password works.
      expect((await login(t, 'yan@pharmacy.test', 'anything at all')).body.reason).toBe('InvalidCredentials');
      await t.call('auth', 'completeResetPassword', { password: NEW_PASSWORD, token: tokenIn(mail.text) });
      const signedIn = await login(t, 'yan@pharmacy.test', NEW_PASSWORD);
      expect(signedIn.body.result?.user).toMatchObject({
        email: 'Yan@Pharmacy.test',
        givenName: 'Yan',
        familyName: 'Ng',
      });
    });

    it('answers the same for an existing email and creates no second account', async () => {
      await t.createUser({ email: 'zoe@pharmacy.test', password: PASSWORD });
      const res = await t.call('auth', 'register', {
        email: 'ZOE@pharmacy.test',
        givenName: 'Z',
        familyName: 'Q',
        frontEnd: 'pharmacy',
      });
      expect<unknown>(res.body).toEqual({ ok: true });
      expect((await catcher.waitFor('zoe@pharmacy.test')).subject).toBe('Reset your MedLocker password');
      expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(1);
    });
  },
  () => ({ mailer: createSmtpMailer(catcher.url, 'MedLocker <no-reply@medlocker.test>') }),
  { ALLOW_REGISTRATION: 'true' },
);

describeApi('registration when not allowed', (t) => {
  it('is refused with 403', async () => {
    const res = await t.call('auth', 'register', {
      email: 'amy@pharmacy.test',
      givenName: 'A',
      familyName: 'B',
      frontEnd: 'pharmacy',
    });
    expect(res.status).toBe(403);
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });
});
