import { expect, it, setDefaultTimeout, spyOn } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { authMessages, authPolicy } from '../../sessions/policy.ts';
import { describeApi } from '../../testing/api.ts';
import { login, PASSWORD, sessionCookieOf, supportWithoutSecondFactor } from '../../testing/auth.ts';

// Each login hashes with argon2id, which is slow on purpose; a loaded machine needs more than 5 s a test.
setDefaultTimeout(30_000);

const LOCKED =
  'Your account has been temporarily disabled due to too many incorrect login attempts. Please try again in 5 minutes.';

describeApi('auth.login', (t) => {
  it('signs in with the email in any case and blanks around it', async () => {
    await supportWithoutSecondFactor(t);
    await t.createUser({ email: 'Alice.Smith@Pharmacy.test', password: PASSWORD, support: true });
    const res = await login(t, '  ALICE.smith@pharmacy.TEST ');
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.result?.user.email).toBe('Alice.Smith@Pharmacy.test');
    expect(res.body.result?.scopes).toEqual(['support']);
    expect(res.body.result?.expires).toBe(t.deps.now() + authPolicy.sessionAbsoluteMs);
    expect(res.token).toBeDefined();
    // The token is only in the HttpOnly cookie, never in the body a script could read.
    expect(JSON.stringify(res.body)).not.toContain(res.token as string);
  });

  it('gives an unknown user exactly the answer of a wrong password', async () => {
    await t.createUser({ email: 'bob@pharmacy.test', password: PASSWORD });
    const wrong = await login(t, 'bob@pharmacy.test', 'not the password');
    const unknown = await login(t, 'nobody@pharmacy.test', 'not the password');
    expect(wrong.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect<unknown>(unknown.body).toEqual(wrong.body);
    expect<unknown>(wrong.body).toEqual({
      ok: false,
      reason: 'InvalidCredentials',
      message: 'Invalid username or password',
    });
    expect(wrong.token).toBeUndefined();
    expect(unknown.token).toBeUndefined();
  });

  it('locks the account after 5 failures, then refuses even the right password with the SPEC message', async () => {
    await t.createUser({ email: 'erin@pharmacy.test', password: PASSWORD });
    for (let i = 1; i <= 4; i++) {
      expect((await login(t, 'erin@pharmacy.test', `wrong ${i}`)).body.reason).toBe('InvalidCredentials');
    }
    const fifth = await login(t, 'ERIN@pharmacy.test', 'wrong 5');
    expect<unknown>(fifth.body).toEqual({ ok: false, reason: 'TooManyAttempts', message: LOCKED });
    const right = await login(t, 'erin@pharmacy.test', PASSWORD);
    expect(right.status).toBe(200);
    expect<unknown>(right.body).toEqual({ ok: false, reason: 'TooManyAttempts', message: LOCKED });
    expect(right.token).toBeUndefined();
  });

  it('ends the lockout after 5 minutes', async () => {
    await t.createUser({ email: 'fay@pharmacy.test', password: PASSWORD });
    for (let i = 0; i < 5; i++) await login(t, 'fay@pharmacy.test', 'wrong');
    t.advance(authPolicy.lockoutMs - 1000);
    expect((await login(t, 'fay@pharmacy.test')).body.reason).toBe('TooManyAttempts');
    t.advance(1000);
    const after = await login(t, 'fay@pharmacy.test');
    expect(after.body.ok).toBe(true);
    expect(after.token).toBeDefined();
  });

  it('keeps a lock for its full 5 minutes when the first failure was almost 15 minutes earlier', async () => {
    await t.createUser({ email: 'joy@pharmacy.test', password: PASSWORD });
    await login(t, 'joy@pharmacy.test', 'wrong');
    t.advance(authPolicy.lockoutWindowMs - 60_000);
    for (let i = 0; i < 4; i++) await login(t, 'joy@pharmacy.test', 'wrong');
    // The count's window (from the first failure) ends a minute later; the lock must not end with it.
    t.advance(2 * 60_000);
    expect((await login(t, 'joy@pharmacy.test')).body.reason).toBe('TooManyAttempts');
    t.advance(authPolicy.lockoutMs - 2 * 60_000);
    expect((await login(t, 'joy@pharmacy.test')).body.ok).toBe(true);
  });

  it('counts failures for unknown usernames too, so probing cannot tell them apart', async () => {
    for (let i = 0; i < 5; i++) await login(t, 'ghost@pharmacy.test', 'wrong');
    expect((await login(t, 'ghost@pharmacy.test', 'wrong')).body.reason).toBe('TooManyAttempts');
  });

  it('resets the count after a successful login', async () => {
    await t.createUser({ email: 'gus@pharmacy.test', password: PASSWORD });
    for (let i = 0; i < 4; i++) await login(t, 'gus@pharmacy.test', 'wrong');
    expect((await login(t, 'gus@pharmacy.test')).body.ok).toBe(true);
    for (let i = 0; i < 4; i++) {
      expect((await login(t, 'gus@pharmacy.test', 'wrong')).body.reason).toBe('InvalidCredentials');
    }
  });

  it('forgets failures older than the 15-minute window', async () => {
    await t.createUser({ email: 'hal@pharmacy.test', password: PASSWORD });
    for (let i = 0; i < 4; i++) await login(t, 'hal@pharmacy.test', 'wrong');
    t.advance(authPolicy.lockoutWindowMs);
    for (let i = 0; i < 4; i++) {
      expect((await login(t, 'hal@pharmacy.test', 'wrong')).body.reason).toBe('InvalidCredentials');
    }
  });

  it('refuses a locked account before hashing: many attempts stay cheap', async () => {
    for (let i = 0; i < 5; i++) await login(t, 'ivy@pharmacy.test', 'wrong');
    const verify = spyOn(Bun.password, 'verify');
    try {
      const answers = await Promise.all(Array.from({ length: 100 }, () => login(t, 'ivy@pharmacy.test', 'wrong')));
      expect(answers.every((a) => a.body.reason === 'TooManyAttempts')).toBe(true);
      expect(verify).not.toHaveBeenCalled();
      await login(t, 'someone.else@pharmacy.test', 'wrong');
      expect(verify).toHaveBeenCalledTimes(1);
    } finally {
      verify.mockRestore();
    }
    expect((await listAudit(t.db, 'auth.login.locked')).length).toBe(100);
  });

  it('never gives a session to a user who must reset their password', async () => {
    await t.createUser({ email: 'jo@pharmacy.test', password: PASSWORD, forceReset: true });
    const res = await login(t, 'jo@pharmacy.test');
    expect(res.body).toMatchObject({ ok: false, reason: 'ForceReset' });
    expect(res.token).toBeUndefined();
    // A wrong password does not reveal the forced reset.
    expect((await login(t, 'jo@pharmacy.test', 'wrong')).body.reason).toBe('InvalidCredentials');
  });

  it('sets an HttpOnly, SameSite=Strict session cookie, not Secure over http', async () => {
    await t.createUser({ email: 'kim@pharmacy.test', password: PASSWORD });
    const res = await t.call('auth', 'login', { username: 'kim@pharmacy.test', password: PASSWORD });
    const cookie = sessionCookieOf(res);
    expect(cookie?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie?.attributes).toContain('HttpOnly');
    expect(cookie?.attributes).toContain('SameSite=Strict');
    expect(cookie?.attributes).toContain('Path=/');
    expect(cookie?.attributes).not.toContain('Secure');
  });

  it('marks the cookie Secure over https', async () => {
    await t.createUser({ email: 'lee@pharmacy.test', password: PASSWORD });
    const res = await t.app.handle(
      new Request('https://medlocker.test/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://medlocker.test' },
        body: JSON.stringify({ username: 'lee@pharmacy.test', password: PASSWORD }),
      }),
    );
    expect(res.status).toBe(200);
    expect(sessionCookieOf(res)?.attributes).toContain('Secure');
  });

  it('ignores X-Forwarded-Proto from a client that is not a trusted proxy', async () => {
    await t.createUser({ email: 'lou@pharmacy.test', password: PASSWORD });
    const res = await t.call(
      'auth',
      'login',
      { username: 'lou@pharmacy.test', password: PASSWORD },
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    expect(res.status).toBe(200);
    expect(sessionCookieOf(res)?.attributes).not.toContain('Secure');
  });

  it('issues a new token at every login and ends the session of the old cookie', async () => {
    await t.createUser({ email: 'max@pharmacy.test', password: PASSWORD });
    const first = await login(t, 'max@pharmacy.test');
    const second = await login(t, 'max@pharmacy.test', PASSWORD, first.cookie);
    expect(second.token).toBeDefined();
    expect(second.token).not.toBe(first.token);
    expect((await t.call('auth', 'session', {}, { cookie: first.cookie as string })).status).toBe(401);
    expect((await t.call('auth', 'session', {}, { cookie: second.cookie as string })).status).toBe(200);
  });

  it('stores only a hash of the session token', async () => {
    await t.createUser({ email: 'ned@pharmacy.test', password: PASSWORD });
    const { token } = await login(t, 'ned@pharmacy.test');
    const rows = await t.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).not.toContain(token as string);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a username that is not an email, with the form message', async () => {
    const res = await t.call('auth', 'login', { username: 'not-an-email', password: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual({
      path: 'username',
      id: 'EXPECTED_EMAIL',
      message: 'Enter a valid email address',
    });
  });

  it('audits logins and failures with the address, never the password', async () => {
    await t.createUser({ email: 'olga@pharmacy.test', password: PASSWORD });
    await login(t, 'olga@pharmacy.test', 'a wrong secret');
    await login(t, 'olga@pharmacy.test');
    const failed = await listAudit(t.db, 'auth.login.failed');
    const ok = await listAudit(t.db, 'auth.login');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.details).toMatchObject({ username: 'olga@pharmacy.test' });
    expect(ok).toHaveLength(1);
    expect(ok[0]?.requestId).toBeTruthy();
    const all = JSON.stringify(await listAudit(t.db));
    expect(all).not.toContain('a wrong secret');
    expect(all).not.toContain(PASSWORD);
  });

  it('tells the login page whether registration is offered', async () => {
    const res = await t.call('auth', 'config', {});
    expect<unknown>(res.body).toEqual({ allowRegistration: false, productName: 'MedLocker' });
  });

  it('uses the SPEC wording for the lockout message', () => {
    expect(authMessages.tooManyAttempts).toBe(LOCKED);
  });

  // At the production cost (the rest of the file hashes at the cheap test cost, a millisecond): the dummy
  // hash of an unknown user must cost what a real one does. The configuration is put back afterwards.
  const atStandardCost = async (body: () => Promise<void>) => {
    t.deps.config.passwordHashing = 'standard';
    try {
      await body();
    } finally {
      t.deps.config.passwordHashing = 'test';
    }
  };

  it("hashes at Bun.password's default argon2id parameters when configured as outside tests", () =>
    atStandardCost(async () => {
      await t.createUser({ email: 'bea@pharmacy.test', password: PASSWORD });
      const row = await t.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
      expect(row.password_hash).toStartWith('$argon2id$v=19$m=65536,t=2,p=1$');
      expect((await login(t, 'bea@pharmacy.test')).body.ok).toBe(true);
    }));

  it('takes about as long for an unknown user as for a wrong password, at the standard cost', () =>
    atStandardCost(async () => {
      await t.createUser({ email: 'carol@pharmacy.test', password: PASSWORD });
      const time = async (username: string) => {
        const started = performance.now();
        await login(t, username, 'not the password');
        return performance.now() - started;
      };
      await time('warm.up@pharmacy.test');
      const known = (await time('carol@pharmacy.test')) + (await time('carol@pharmacy.test'));
      const unknown = (await time('dan@pharmacy.test')) + (await time('dan@pharmacy.test'));
      // Both paths run one argon2id verification; without the dummy hash the unknown path is ~100x faster.
      expect(unknown).toBeGreaterThan(known * 0.25);
    }));
});
