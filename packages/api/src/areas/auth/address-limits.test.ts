import { expect, it, setDefaultTimeout } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';
import { PASSWORD } from '../../testing/auth.ts';
import { listen } from '../../testing/hub.ts';
import { addressLimits } from './service.ts';

// Thirty failed logins hash thirty times with argon2id, slow on purpose.
setDefaultTimeout(180_000);

describeApi(
  'limits per client address on sign-in and on mail-sending calls',
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

    it('stops an address after 30 failed logins across any accounts, whatever it tries next', async () => {
      await t.createUser({ email: 'sam@pharmacy.test', password: PASSWORD, support: true });
      const server = listen(t);
      try {
        for (let i = 0; i < addressLimits.failedLogins; i++) {
          const wrong = await post(server.http, 'login', {
            username: `user${i}@pharmacy.test`,
            password: 'guess-1234',
          });
          expect(wrong.body.reason).toBe('InvalidCredentials');
        }
        // The right password for an account that was never tried is refused too, and nothing is checked.
        const refused = await post(server.http, 'login', { username: 'sam@pharmacy.test', password: PASSWORD });
        expect(refused.status).toBe(429);
        expect(refused.retryAfter).toBe('30');
        expect(refused.body.error).toEqual({
          code: 'RATE_LIMITED',
          message: 'Too many failed logins from this address. Please try again in 1 minute.',
        });
        expect((await listAudit(t.db, 'auth.login.throttled')).length).toBe(1);
        // In-process calls have no address and are not limited; another address would not be either.
        expect((await t.call('auth', 'login', { username: 'sam@pharmacy.test', password: PASSWORD })).status).toBe(200);
        // One failure's worth comes back every 30 s; a successful login takes nothing.
        t.advance(30_000);
        const back = await post(server.http, 'login', { username: 'sam@pharmacy.test', password: PASSWORD });
        expect(back.status).toBe(200);
        expect(back.body.ok).toBe(true);
        expect((await post(server.http, 'login', { username: 'sam@pharmacy.test', password: PASSWORD })).status).toBe(
          200,
        );
      } finally {
        server.stop();
      }
    });

    it('stops an address after 10 reset or registration requests an hour, sending nothing more', async () => {
      const server = listen(t);
      try {
        for (let i = 0; i < addressLimits.mails; i++) {
          const method = i % 2 ? 'beginResetPassword' : 'register';
          const body =
            method === 'register'
              ? { email: `new${i}@pharmacy.test`, givenName: 'New', familyName: 'Person', frontEnd: 'support' }
              : { email: `someone${i}@pharmacy.test`, frontEnd: 'support' };
          expect((await post(server.http, method, body)).status).toBe(200);
        }
        const refused = await post(server.http, 'beginResetPassword', {
          email: 'another@pharmacy.test',
          frontEnd: 'support',
        });
        expect(refused.status).toBe(429);
        expect(refused.retryAfter).toBe('360');
        expect(refused.body.error.message).toBe('Too many requests from this address. Please try again in 6 minutes.');
        expect(await listAudit(t.db, 'auth.reset.requested')).toHaveLength(addressLimits.mails / 2);
      } finally {
        server.stop();
      }
    });
  },
  undefined,
  { ALLOW_REGISTRATION: 'true' },
);
