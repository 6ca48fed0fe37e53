import { expect, it, setDefaultTimeout } from 'bun:test';
import { authPolicy } from '../../sessions/policy.ts';
import { describeApi } from '../../testing/api.ts';
import { login, PASSWORD, sessionCookieOf, supportWithoutSecondFactor } from '../../testing/auth.ts';

// Each login hashes with argon2id, which is slow on purpose; a loaded machine needs more than 5 s a test.
setDefaultTimeout(30_000);

const TIMED_OUT = 'Your session has timed out. Please log in again';

describeApi('sessions', (t) => {
  it('answers the current session to its cookie and to its bearer token', async () => {
    await supportWithoutSecondFactor(t);
    await t.createUser({
      email: 'pat@pharmacy.test',
      password: PASSWORD,
      support: true,
      givenName: 'Pat',
      familyName: 'Lee',
    });
    const { cookie, token } = await login(t, 'pat@pharmacy.test');
    const byCookie = await t.call('auth', 'session', {}, { cookie: cookie as string });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body).toMatchObject({ scopes: ['support'], user: { email: 'pat@pharmacy.test', name: 'Pat Lee' } });
    expect(byCookie.body.expires).toBe(t.deps.now() + authPolicy.sessionAbsoluteMs);
    const byBearer = await t.call('auth', 'session', {}, { token: token as string, origin: null });
    expect(byBearer.status).toBe(200);
  });

  it('answers 401 without a session, and for a token it never issued', async () => {
    const none = await t.call('auth', 'session', {});
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHENTICATED');
    const forged = await t.call('auth', 'session', {}, { cookie: `medlocker_session=${'A'.repeat(43)}` });
    expect(forged.status).toBe(401);
  });

  it('times out after 30 idle minutes with the SPEC message', async () => {
    const { cookie } = await t.signIn({ support: true });
    t.advance(authPolicy.sessionIdleMs - 1);
    expect((await t.call('auth', 'session', {}, { cookie })).status).toBe(200);
    t.advance(authPolicy.sessionIdleMs);
    const res = await t.call('auth', 'session', {}, { cookie });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED', message: TIMED_OUT });
  });

  it('pushes the idle expiry forward on use, but writes at most once a minute', async () => {
    const { cookie } = await t.signIn({ support: true });
    const seen = async () =>
      await t.db.selectFrom('sessions').select(['last_seen', 'idle_expires_at']).executeTakeFirstOrThrow();
    const start = await seen();
    t.advance(30_000);
    await t.call('auth', 'session', {}, { cookie });
    expect(await seen()).toEqual(start);
    // Used every 20 minutes, a session lives past its first 30 idle minutes.
    for (let i = 0; i < 4; i++) {
      t.advance(20 * 60_000);
      expect((await t.call('auth', 'session', {}, { cookie })).status).toBe(200);
    }
    expect((await seen()).idle_expires_at).toBe(t.deps.now() + authPolicy.sessionIdleMs);
  });

  it('ends after 12 hours however active', async () => {
    const { cookie } = await t.signIn({ support: true });
    for (let elapsed = 0; elapsed < authPolicy.sessionAbsoluteMs - 20 * 60_000; elapsed += 20 * 60_000) {
      t.advance(20 * 60_000);
      expect((await t.call('auth', 'session', {}, { cookie })).status).toBe(200);
    }
    t.advance(20 * 60_000);
    const res = await t.call('auth', 'session', {}, { cookie });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(TIMED_OUT);
  });

  it('lets a timed-out browser log in again over its stale cookie', async () => {
    await t.createUser({ email: 'quin@pharmacy.test', password: PASSWORD });
    const first = await login(t, 'quin@pharmacy.test');
    t.advance(authPolicy.sessionIdleMs + 1);
    expect((await t.call('auth', 'config', {}, { cookie: first.cookie as string })).status).toBe(200);
    const again = await login(t, 'quin@pharmacy.test', PASSWORD, first.cookie);
    expect(again.body.ok).toBe(true);
  });

  it('logs out on the server: the old cookie no longer works, and the cookie is cleared', async () => {
    const { cookie, token } = await t.signIn({ support: true });
    const out = await t.call('auth', 'logout', {}, { cookie });
    expect(out.status).toBe(200);
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith('medlocker_session='));
    expect(cleared).toContain('Max-Age=0');
    expect(sessionCookieOf(out)).toBeUndefined();
    const after = await t.call('auth', 'session', {}, { cookie });
    expect(after.status).toBe(401);
    expect((await t.call('auth', 'session', {}, { token, origin: null })).status).toBe(401);
    expect((await t.db.selectFrom('sessions').select('revoked_at').executeTakeFirstOrThrow()).revoked_at).toBe(
      t.deps.now(),
    );
  });

  it('answers 403 to a signed-in user without the support scope', async () => {
    const { cookie } = await t.signIn({ roles: [] });
    const res = await t.call('users', 'getUsersByRole', { roleName: 'Support' }, { cookie });
    expect(res.status).toBe(403);
    expect((await t.call('auth', 'session', {}, { cookie })).body.scopes).toEqual([]);
  });

  it('takes the support scope away as soon as the Support role goes', async () => {
    const admin = await t.signIn({ support: true });
    const other = await t.signIn({ support: true });
    expect((await t.call('identityProviders', 'list', {}, { cookie: other.cookie })).status).toBe(200);
    await t.call(
      'auth',
      'removeRole',
      { userId: other.userId, roleName: 'Support', roleResource: null },
      { cookie: admin.cookie },
    );
    expect((await t.call('identityProviders', 'list', {}, { cookie: other.cookie })).status).toBe(403);
  });

  it('refuses a state-changing call from a foreign origin, even with a valid cookie', async () => {
    const { cookie } = await t.signIn({ support: true });
    const res = await t.call('auth', 'logout', {}, { cookie, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect((await t.call('auth', 'session', {}, { cookie })).status).toBe(200);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await t.raw('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'http://medlocker.test' },
      body: JSON.stringify({ username: 'a@b.test', password: 'x' }),
    });
    expect(res.status).toBe(415);
  });
});
