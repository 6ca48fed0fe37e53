import { expect, it, setDefaultTimeout } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { createSession } from '../../sessions/sessions.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { login, PASSWORD } from '../../testing/auth.ts';
import { seedBusiness } from '../../testing/hub.ts';

// Each login and password change hashes with argon2id, which is slow on purpose.
setDefaultTimeout(30_000);

const NEW_PASSWORD = 'a brand new passphrase';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Another session of the same user, as a second browser would have. */
async function secondSession(t: TestApi, userId: string, userAgent = CHROME_WINDOWS) {
  const { token, session } = await createSession(t.db, userId, t.deps.now(), { ip: '203.0.113.9', userAgent });
  return { id: session.id, cookie: `medlocker_session=${token}` };
}

function only<T>(items: T[]): T {
  const [item] = items;
  if (item === undefined || items.length !== 1) throw new Error(`expected one, got ${items.length}`);
  return item;
}

const alive = async (t: TestApi, cookie: string) => (await t.call('auth', 'session', {}, { cookie })).status === 200;

describeApi('the user’s own account: password', (t) => {
  it('changes the password with the current one: other sessions end, this one stays', async () => {
    const me = await t.signIn({ email: 'pat@pharmacy.test', password: PASSWORD });
    const other = await secondSession(t, me.userId);
    const res = await t.call(
      'auth',
      'changePassword',
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      { cookie: me.cookie },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, endedSessions: 1 });
    expect(await alive(t, me.cookie)).toBe(true);
    expect(await alive(t, other.cookie)).toBe(false);
    expect((await login(t, 'pat@pharmacy.test', PASSWORD)).body.ok).toBe(false);
    expect((await login(t, 'pat@pharmacy.test', NEW_PASSWORD)).body.ok).toBe(true);
    const [entry] = await listAudit(t.db, 'auth.password.change');
    expect(entry).toMatchObject({ actorUserId: me.userId, entityId: me.userId, details: { endedSessions: 1 } });
  });

  it('refuses a wrong current password on its field, counts it as a failed login, and locks after 5', async () => {
    const me = await t.signIn({ email: 'quin@pharmacy.test', password: PASSWORD });
    const other = await secondSession(t, me.userId);
    const wrong = () =>
      t.call(
        'auth',
        'changePassword',
        { currentPassword: 'not my password', newPassword: NEW_PASSWORD },
        { cookie: me.cookie },
      );
    const first = await wrong();
    expect(first.status).toBe(400);
    expect(first.body.error.details).toEqual([
      { path: 'currentPassword', id: 'INVALID_CURRENT_PASSWORD', message: 'Your current password is not correct' },
    ]);
    const failures = await t.db.selectFrom('login_failures').selectAll().executeTakeFirstOrThrow();
    expect(failures).toMatchObject({ username_normalised: 'quin@pharmacy.test', failures: 1 });
    for (let i = 0; i < 3; i++) expect((await wrong()).status).toBe(400);
    // The fifth reaches the threshold: locked, as at sign-in; then even the right password is refused unchecked.
    const fifth = await wrong();
    expect(fifth.status).toBe(429);
    expect(fifth.body.error.message).toBe(
      'Your account has been temporarily disabled due to too many incorrect login attempts. Please try again in 5 minutes.',
    );
    const right = await t.call(
      'auth',
      'changePassword',
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      { cookie: me.cookie },
    );
    expect(right.status).toBe(429);
    expect((await login(t, 'quin@pharmacy.test', PASSWORD)).body.reason).toBe('TooManyAttempts');
    expect(await alive(t, other.cookie)).toBe(true);
    expect((await listAudit(t.db, 'auth.password.change.failed')).length).toBe(5);
    expect((await listAudit(t.db, 'auth.password.change')).length).toBe(0);
  });

  it('refuses a new password under 12 characters in SPEC §5 words', async () => {
    const me = await t.signIn({ password: PASSWORD });
    const res = await t.call(
      'auth',
      'changePassword',
      { currentPassword: PASSWORD, newPassword: 'short' },
      { cookie: me.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'newPassword', id: 'PASSWORD_TOO_SHORT', message: 'Please enter at least 12 characters' },
    ]);
  });
});

describeApi('the user’s own account: sessions', (t) => {
  it('lists one’s own live sessions with a readable device, this one marked', async () => {
    const me = await t.signIn({ email: 'pat@pharmacy.test' });
    t.advance(60_000);
    const other = await secondSession(t, me.userId);
    const res = await t.call('auth', 'listSessions', {}, { cookie: me.cookie });
    expect(res.status).toBe(200);
    expect(res.body.sessions).toEqual([
      {
        id: other.id,
        device: 'Chrome on Windows',
        userAgent: CHROME_WINDOWS,
        ip: '203.0.113.9',
        created: t.deps.now(),
        lastSeen: t.deps.now(),
        current: false,
      },
      expect.objectContaining({ current: true, device: 'Unknown device' }),
    ]);
  });

  it('ends one’s own other session, and all the others at once', async () => {
    const me = await t.signIn();
    const a = await secondSession(t, me.userId);
    const b = await secondSession(t, me.userId);
    expect((await t.call('auth', 'endSession', { sessionId: a.id }, { cookie: me.cookie })).status).toBe(200);
    expect(await alive(t, a.cookie)).toBe(false);
    expect(await alive(t, b.cookie)).toBe(true);
    const rest = await t.call('auth', 'endOtherSessions', {}, { cookie: me.cookie });
    expect(rest.body).toEqual({ ok: true, ended: 1 });
    expect(await alive(t, b.cookie)).toBe(false);
    expect(await alive(t, me.cookie)).toBe(true);
    expect((await listAudit(t.db, 'session.end'))[0]?.details).toEqual({
      sessionId: a.id,
      userId: me.userId,
      own: true,
    });
  });

  it('never lets a pharmacy user see or end another user’s session, Admin or not', async () => {
    const businessId = await seedBusiness(t.db, 'b1');
    const admin = await t.signIn({
      roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId, accessLevels: ['Admin'] }],
    });
    const colleague = await t.signIn({
      roles: [{ name: 'Business', resourceType: 'business', resourceId: businessId }],
    });
    const theirs = only((await t.call('auth', 'listSessions', {}, { cookie: colleague.cookie })).body.sessions);
    const list = await t.call('auth', 'listSessions', { userId: colleague.userId }, { cookie: admin.cookie });
    expect(list.status).toBe(403);
    const end = await t.call('auth', 'endSession', { sessionId: theirs.id }, { cookie: admin.cookie });
    expect(end.status).toBe(404);
    const all = await t.call('auth', 'endOtherSessions', { userId: colleague.userId }, { cookie: admin.cookie });
    expect(all.status).toBe(403);
    expect(await alive(t, colleague.cookie)).toBe(true);
  });

  it('lets support see and end another user’s sessions, audited as who ended whose', async () => {
    const support = await t.signIn({ support: true, givenName: 'Sam', familyName: 'Support' });
    const pat = await t.signIn({ email: 'pat@pharmacy.test' });
    const list = await t.call('auth', 'listSessions', { userId: pat.userId }, { cookie: support.cookie });
    expect(list.status).toBe(200);
    const theirs = only(list.body.sessions);
    expect(theirs.current).toBe(false);
    expect((await t.call('auth', 'endSession', { sessionId: theirs.id }, { cookie: support.cookie })).status).toBe(200);
    expect(await alive(t, pat.cookie)).toBe(false);
    const [entry] = await listAudit(t.db, 'session.end');
    expect(entry).toMatchObject({
      actorUserId: support.userId,
      actorDisplay: 'Sam Support',
      entityType: 'user',
      entityId: pat.userId,
      details: { sessionId: theirs.id, userId: pat.userId, own: false },
    });
    expect((await listAudit(t.db, 'session.list'))[0]).toMatchObject({ entityId: pat.userId });
  });
});

describeApi('inactive accounts', (t) => {
  const day = 24 * 60 * 60 * 1000;
  const runJob = async () => {
    const { disableInactiveAccounts } = await import('./inactive-accounts.ts');
    return disableInactiveAccounts(t.deps);
  };
  const disabledAt = async (userId: string) =>
    (await t.db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirstOrThrow())
      .disabled_at;

  it('disables exactly the accounts unused for the set days, ends their sessions, and they cannot sign in', async () => {
    const keeper = await t.signIn({ support: true, email: 'keeper@medlocker.test', password: PASSWORD });
    const stale = await t.signIn({ email: 'stale@pharmacy.test', password: PASSWORD });
    const signedInLater = await t.createUser({ email: 'later@pharmacy.test', password: PASSWORD });
    t.advance(80 * day);
    expect((await login(t, 'later@pharmacy.test')).body.ok).toBe(true);
    expect((await login(t, 'keeper@medlocker.test')).body.ok).toBe(true);
    t.advance(10 * day + 1);
    const fresh = await t.createUser({ email: 'fresh@pharmacy.test', password: PASSWORD });
    expect(await runJob()).toBe(1);
    expect(await disabledAt(stale.userId)).toBe(t.deps.now());
    for (const user of [keeper, signedInLater, fresh]) expect(await disabledAt(user.userId)).toBeNull();
    expect(await alive(t, stale.cookie)).toBe(false);
    const refused = await login(t, 'stale@pharmacy.test');
    expect(refused.body).toEqual({
      ok: false,
      reason: 'AccountDisabled',
      message:
        'Your account has been disabled because it has not been used for a while. Please speak to your manager or MedLocker Support to enable it again.',
    });
    expect(refused.cookie).toBeUndefined();
    // A wrong password still gets the usual answer: being disabled is told only to whoever knows the password.
    expect((await login(t, 'stale@pharmacy.test', 'wrong password 1')).body.reason).toBe('InvalidCredentials');
    const [entry] = await listAudit(t.db, 'user.disable');
    expect(entry).toMatchObject({ entityId: stale.userId, details: { reason: 'inactive', days: 90 } });
    expect(await runJob()).toBe(0);
  });

  it('follows the global setting’s days', async () => {
    const support = await t.signIn({ support: true });
    const pat = await t.createUser({ email: 'pat@pharmacy.test' });
    await t.call(
      'globalSettings',
      'createOrUpdateGlobalSettings',
      { nhsPrescriptionCharge: 990, inactiveAccountDays: 7 },
      { cookie: support.cookie },
    );
    t.advance(7 * day - 1);
    expect(await runJob()).toBe(0);
    t.advance(2);
    // The support user is spared: it is the last enabled Support account.
    expect(await runJob()).toBe(1);
    expect(await disabledAt(pat.userId)).not.toBeNull();
    expect(await disabledAt(support.userId)).toBeNull();
  });

  it('never disables the last enabled Support account, but does disable a stale one among others', async () => {
    const old = await t.createUser({ support: true, email: 'old@medlocker.test' });
    t.advance(10 * day);
    const older = await t.createUser({ support: true, email: 'newer@medlocker.test' });
    t.advance(91 * day);
    expect(await runJob()).toBe(1);
    expect(await disabledAt(old.userId)).not.toBeNull();
    expect(await disabledAt(older.userId)).toBeNull();
  });

  it('is enabled again by support, audited, and signs in; the days count from then', async () => {
    const pat = await t.createUser({ email: 'pat@pharmacy.test', password: PASSWORD });
    t.advance(91 * day);
    const support = await t.signIn({ support: true });
    await runJob();
    const status = await t.call('auth', 'getAccountStatus', { userId: pat.userId }, { cookie: support.cookie });
    expect(status.body).toEqual({ lastSignIn: null, disabledAt: t.deps.now(), disabledReason: 'inactive' });
    const enabled = await t.call('auth', 'enableUser', { userId: pat.userId }, { cookie: support.cookie });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ lastSignIn: null, disabledAt: null, disabledReason: null });
    const [entry] = await listAudit(t.db, 'user.enable');
    expect(entry).toMatchObject({ actorUserId: support.userId, entityId: pat.userId, details: { reason: 'inactive' } });
    expect(await runJob()).toBe(0);
    const signedIn = await login(t, 'pat@pharmacy.test');
    expect(signedIn.body.ok).toBe(true);
    expect(
      (await t.call('auth', 'getAccountStatus', { userId: pat.userId }, { cookie: support.cookie })).body,
    ).toMatchObject({ lastSignIn: t.deps.now() });
  });

  it('is enabled again by an Admin of a business the user works for, and by no other pharmacy user', async () => {
    await seedBusiness(t.db, 'b1');
    await seedBusiness(t.db, 'b2');
    const role = (resourceId: string, admin: boolean) => ({
      name: 'Business' as const,
      resourceType: 'business' as const,
      resourceId,
      accessLevels: admin ? ['Admin'] : [],
    });
    const pat = await t.createUser({ email: 'pat@pharmacy.test', password: PASSWORD, roles: [role('b1', false)] });
    t.advance(91 * day);
    const admin = await t.signIn({ roles: [role('b1', true)] });
    const colleague = await t.signIn({ roles: [role('b1', false)] });
    const stranger = await t.signIn({ roles: [role('b2', true)] });
    await runJob();
    const enable = (cookie: string) => t.call('auth', 'enableUser', { userId: pat.userId }, { cookie });
    expect((await enable(stranger.cookie)).status).toBe(404);
    expect((await enable(colleague.cookie)).status).toBe(403);
    expect(await disabledAt(pat.userId)).not.toBeNull();
    expect((await enable(admin.cookie)).status).toBe(200);
    expect(await disabledAt(pat.userId)).toBeNull();
    expect((await listAudit(t.db, 'user.enable'))[0]).toMatchObject({
      actorUserId: admin.userId,
      entityId: pat.userId,
    });
    expect((await login(t, 'pat@pharmacy.test')).body.ok).toBe(true);
  });
});
