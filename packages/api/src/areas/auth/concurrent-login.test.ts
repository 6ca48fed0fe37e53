import { expect, it, setDefaultTimeout, spyOn } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { authMessages, authPolicy } from '../../sessions/policy.ts';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';
import { login, PASSWORD } from '../../testing/auth.ts';
import { listen } from '../../testing/hub.ts';
import { addressLimits } from './service.ts';

// Up to 35 argon2id verifications on a loaded machine.
setDefaultTimeout(120_000);

const ATTEMPTS = 50;

describeApi('sign-in limits under concurrent attempts', (t) => {
  it('checks at most 5 of 50 concurrent wrong passwords for one account, then refuses the right one', async () => {
    await t.createUser({ email: 'kim@pharmacy.test', password: PASSWORD });
    const verify = spyOn(Bun.password, 'verify');
    try {
      const answers = await Promise.all(
        Array.from({ length: ATTEMPTS }, (_, i) => login(t, 'kim@pharmacy.test', `wrong ${i}`)),
      );
      expect(verify.mock.calls.length).toBeLessThanOrEqual(authPolicy.lockoutThreshold);
      expect(answers.every((a) => a.status === 200 && a.body.ok === false)).toBe(true);
      expect(answers.filter((a) => a.body.reason === 'TooManyAttempts').length).toBeGreaterThanOrEqual(
        ATTEMPTS - authPolicy.lockoutThreshold + 1,
      );
      const calls = verify.mock.calls.length;
      const right = await login(t, 'kim@pharmacy.test', PASSWORD);
      expect<unknown>(right.body).toEqual({
        ok: false,
        reason: 'TooManyAttempts',
        message: authMessages.tooManyAttempts,
      });
      expect(right.token).toBeUndefined();
      expect(verify.mock.calls.length).toBe(calls);
    } finally {
      verify.mockRestore();
    }
    expect((await listAudit(t.db, 'auth.login.failed')).length).toBeLessThanOrEqual(authPolicy.lockoutThreshold);
  });

  it('checks at most 30 of 50 concurrent wrong passwords from one address, then refuses it any account', async () => {
    await t.createUser({ email: 'lee@pharmacy.test', password: PASSWORD });
    const server = listen(t);
    const post = async (body: Record<string, unknown>) => {
      const res = await fetch(`${server.http}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const verify = spyOn(Bun.password, 'verify');
    try {
      // One wrong password on each of 50 accounts: the per-account lockout never sees more than one.
      const answers = await Promise.all(
        Array.from({ length: ATTEMPTS }, (_, i) =>
          post({ username: `user${i}@pharmacy.test`, password: 'guess-1234' }),
        ),
      );
      expect(verify.mock.calls.length).toBeLessThanOrEqual(addressLimits.failedLogins);
      expect(answers.filter((a) => a.status === 429).length).toBe(ATTEMPTS - addressLimits.failedLogins);
      const calls = verify.mock.calls.length;
      const refused = await post({ username: 'lee@pharmacy.test', password: PASSWORD });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(verify.mock.calls.length).toBe(calls);
    } finally {
      verify.mockRestore();
      server.stop();
    }
  });
});
