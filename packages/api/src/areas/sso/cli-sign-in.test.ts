import { expect, it } from 'bun:test';
import { describeApi, TEST_ORIGIN, type TestApi } from '../../testing/api.ts';
import { listen } from '../../testing/hub.ts';
import { cliSignInLimits } from './cli-sign-in.ts';

const sessionsOf = async (t: TestApi, userId: string) =>
  (await t.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;

describeApi('command-line sign-in through the browser', (t) => {
  it('hands the cli a session once the signed-in user approves its code, once', async () => {
    const begun = await t.call('auth', 'beginCliSignIn', {});
    expect(begun.status).toBe(200);
    expect(begun.body.verificationUrl).toBe(`${TEST_ORIGIN}/cli?code=${begun.body.userCode}`);
    expect(begun.body.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect((await t.call('auth', 'pollCliSignIn', { deviceCode: begun.body.deviceCode })).body).toEqual({
      status: 'pending',
    });

    const user = await t.signIn();
    const approved = await t.call(
      'auth',
      'approveCliSignIn',
      { userCode: begun.body.userCode.toLowerCase() },
      { cookie: user.cookie },
    );
    expect(approved.body).toEqual({ ok: true });
    // The same code again is no longer usable.
    const twice = await t.call('auth', 'approveCliSignIn', { userCode: begun.body.userCode }, { cookie: user.cookie });
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toBe('invalid code');

    const polled = await t.call('auth', 'pollCliSignIn', { deviceCode: begun.body.deviceCode });
    expect(polled.body.status).toBe('approved');
    const whoami = await t.call('auth', 'session', {}, { token: polled.body.token });
    expect(whoami.body.user.email).toBe(user.email);
    expect((await t.call('auth', 'pollCliSignIn', { deviceCode: begun.body.deviceCode })).body).toEqual({
      status: 'expired',
    });
  });

  it('refuses an unknown or expired code and needs a signed-in user to approve', async () => {
    const begun = await t.call('auth', 'beginCliSignIn', {});
    expect((await t.call('auth', 'approveCliSignIn', { userCode: begun.body.userCode })).status).toBe(401);
    const user = await t.signIn();
    expect((await t.call('auth', 'approveCliSignIn', { userCode: 'BCDF-GHJK' }, { cookie: user.cookie })).status).toBe(
      400,
    );
    t.advance(11 * 60_000);
    expect(
      (await t.call('auth', 'approveCliSignIn', { userCode: begun.body.userCode }, { cookie: user.cookie })).status,
    ).toBe(400);
    expect((await t.call('auth', 'pollCliSignIn', { deviceCode: begun.body.deviceCode })).body).toEqual({
      status: 'expired',
    });
  });

  it('makes one session for two approvals of a code at once, or an approval racing a poll', async () => {
    const user = await t.signIn();
    const begun = await t.call('auth', 'beginCliSignIn', {});
    const before = await sessionsOf(t, user.userId);
    const approve = () =>
      t.call('auth', 'approveCliSignIn', { userCode: begun.body.userCode }, { cookie: user.cookie });
    const answers = await Promise.all(Array.from({ length: 8 }, approve));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    // One session, and it is the one the cli collects: nothing left over that nobody can use or see.
    expect(await sessionsOf(t, user.userId)).toBe(before + 1);
    const polled = await t.call('auth', 'pollCliSignIn', { deviceCode: begun.body.deviceCode });
    expect(polled.body.status).toBe('approved');
    const session = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.userId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const audited = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'auth.cli.approved')
      .execute();
    expect(audited.map((a) => (typeof a.details === 'string' ? JSON.parse(a.details) : a.details).sessionId)).toEqual([
      session.id,
    ]);

    const again = await t.call('auth', 'beginCliSignIn', {});
    const [approved, poll] = await Promise.all([
      t.call('auth', 'approveCliSignIn', { userCode: again.body.userCode }, { cookie: user.cookie }),
      t.call('auth', 'pollCliSignIn', { deviceCode: again.body.deviceCode }),
    ]);
    expect(approved.status).toBe(200);
    const collected =
      poll.body.status === 'approved'
        ? poll.body
        : (await t.call('auth', 'pollCliSignIn', { deviceCode: again.body.deviceCode })).body;
    expect(collected.status).toBe('approved');
    expect((await t.call('auth', 'session', {}, { token: collected.token })).body.user.email).toBe(user.email);
    expect(await sessionsOf(t, user.userId)).toBe(before + 2);
  });

  it('limits starting and polling per address and approving per user, in the database', async () => {
    const server = listen(t);
    const post = async (method: string, body: Record<string, unknown>) => {
      const res = await fetch(`${server.http}/api/auth/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
        body: JSON.stringify(body),
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
    };
    try {
      let deviceCode = '';
      for (let i = 0; i < cliSignInLimits.begin.capacity; i++) {
        const begun = await post('beginCliSignIn', {});
        expect(begun.status).toBe(200);
        deviceCode = begun.body.deviceCode;
      }
      const refused = await post('beginCliSignIn', {});
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toBe('60');
      expect(refused.body.error).toEqual({
        code: 'RATE_LIMITED',
        message: 'Too many sign-ins from this address. Please try again in 1 minute.',
      });
      expect(await t.db.selectFrom('cli_sign_ins').select('id').execute()).toHaveLength(cliSignInLimits.begin.capacity);

      for (let i = 0; i < cliSignInLimits.poll.capacity; i++)
        expect((await post('pollCliSignIn', { deviceCode })).status).toBe(200);
      const tooFast = await post('pollCliSignIn', { deviceCode });
      expect(tooFast.status).toBe(429);
      expect(tooFast.body.error.message).toBe('Too many polls from this address. Please try again in 1 minute.');
      t.advance(60_000);
      expect((await post('pollCliSignIn', { deviceCode })).status).toBe(200);
    } finally {
      server.stop();
    }

    const user = await t.signIn();
    for (let i = 0; i < cliSignInLimits.approve.capacity; i++) {
      const wrong = await t.call('auth', 'approveCliSignIn', { userCode: 'BCDF-GHJK' }, { cookie: user.cookie });
      expect(wrong.status).toBe(400);
    }
    const guessing = await t.call('auth', 'approveCliSignIn', { userCode: 'BCDF-GHJK' }, { cookie: user.cookie });
    expect(guessing.status).toBe(429);
    expect(guessing.body.error.message).toBe('Too many sign-in approvals. Please try again in 1 minute.');
  });
});
