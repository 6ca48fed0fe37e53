import { expect, it } from 'bun:test';
import { describeApi, TEST_ORIGIN } from '../testing.ts';

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
});
