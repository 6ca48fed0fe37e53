import { afterAll, beforeAll, expect, it } from 'bun:test';
import { freePort } from '../../cluster/free-port.ts';
import { describeApi, TEST_ORIGIN, type TestApi } from '../../testing/api.ts';
import { signInAtIdp, startTestIdp, type TestIdp } from '../../testing/identity-providers/test-idp.ts';
import { insertBusiness } from '../../testing/patients.ts';

/*
 * Sign-in through a real OpenID provider (oidc-provider under Node): the whole round trip, and every
 * way it must be refused.
 */

const CLIENT = {
  client_id: 'medlocker',
  client_secret: 'idp-test-secret',
  redirect_uris: [`${TEST_ORIGIN}/api/auth/callback`],
};
let idp: TestIdp;
beforeAll(async () => {
  idp = await startTestIdp([{ ...CLIENT, grant_types: ['authorization_code'], response_types: ['code'] }]);
});
afterAll(() => idp.stop());

async function provider(t: TestApi, issuerUrl = idp.issuer): Promise<string> {
  const admin = await t.signIn({ support: true });
  const res = await t.call(
    'identityProviders',
    'create',
    {
      name: `Test IdP ${Bun.randomUUIDv7()}`,
      type: 'OIDC',
      configuration: { issuerUrl, clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret },
    },
    { cookie: admin.cookie },
  );
  expect(res.status).toBe(200);
  return res.body.id;
}

async function ssoUser(
  t: TestApi,
  idpId: string | null,
  email = `sso.${Bun.randomUUIDv7()}@example.com`,
  support = true,
) {
  const user = await t.createUser({ email, support });
  await t.db
    .updateTable('users')
    .set({ identity_provider_id: idpId, password_hash: null })
    .where('id', '=', user.userId)
    .execute();
  return user;
}

/** Starts the sign-in as the login page does: the provider's URL and this browser's one-time cookie. */
async function start(t: TestApi, email: string, returnUrl = '/businesses') {
  const res = await t.call('auth', 'getIdentityProviderAuthUrl', { username: email, returnUrl });
  expect(res.status).toBe(200);
  const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('medlocker_sso=')) ?? '').split(';')[0] ?? '';
  return { authUrl: res.body.authUrl as string, cookie };
}

const callback = (t: TestApi, url: URL, cookie: string) =>
  t.raw(`${url.pathname}${url.search}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });

describeApi('single sign-on with OpenID Connect', (t) => {
  it('signs a user in end to end: code flow with state, nonce and PKCE S256, then a session', async () => {
    const idpId = await provider(t);
    const user = await ssoUser(t, idpId);
    const { authUrl, cookie } = await start(t, user.email);
    const url = new URL(authUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(`${TEST_ORIGIN}/api/auth/callback`);
    expect(cookie).toMatch(/^medlocker_sso=/);

    const back = await signInAtIdp(authUrl, user.email);
    const res = await callback(t, back, cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/businesses');
    const session = res.headers.getSetCookie().find((c) => c.startsWith('medlocker_session='));
    expect(session).toContain('HttpOnly');
    const me = await t.call('auth', 'session', {}, { cookie: session?.split(';')[0] });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(user.email);
    const audit = await t.db.selectFrom('audit_log').select('action').where('entity_id', '=', user.userId).execute();
    expect(audit.map((a) => a.action)).toContain('auth.login.sso');

    // The same callback again (a replayed code) finds its state used.
    const replay = await callback(t, back, cookie);
    expect(replay.headers.get('location')).toBe('/auth/login?sso=expired');
    expect(
      replay.headers.getSetCookie().some((c) => c.startsWith('medlocker_session=') && !c.includes('Max-Age=0')),
    ).toBe(false);
  });

  it('returns only to a path on this site', async () => {
    const idpId = await provider(t);
    const user = await ssoUser(t, idpId);
    const { authUrl, cookie } = await start(t, user.email, 'https://evil.example/');
    const res = await callback(t, await signInAtIdp(authUrl, user.email), cookie);
    expect(res.headers.get('location')).toBe('/');
    // The console sends a full URL of this site: its path is kept.
    const own = await start(t, user.email, `${TEST_ORIGIN}/orders?tab=open`);
    const back = await callback(t, await signInAtIdp(own.authUrl, user.email), own.cookie);
    expect(back.headers.get('location')).toBe('/orders?tab=open');
  });

  it("writes the callback's error and error_description to the audit log bounded, without control characters", async () => {
    const idpId = await provider(t);
    const user = await ssoUser(t, idpId);
    const { authUrl, cookie } = await start(t, user.email);
    const state = new URL(authUrl).searchParams.get('state') ?? '';
    const back = new URL(`${TEST_ORIGIN}/api/auth/callback`);
    back.searchParams.set('state', state);
    back.searchParams.set('error', `server_error\r\n{"forged":"line"}\u001b[31m${'e'.repeat(5_000)}`);
    back.searchParams.set('error_description', `Denied\u202E\u0000${'d'.repeat(100_000)}`);
    const res = await callback(t, back, cookie);
    expect(res.headers.get('location')).toBe('/auth/login?sso=rejected');
    const row = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'auth.sso.refused')
      .where('entity_id', '=', idpId)
      .executeTakeFirstOrThrow();
    const details = (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<string, string>;
    expect(details.error).toStartWith('server_error  {"forged":"line"} [31meee');
    expect(details.error).toHaveLength(201);
    expect(details.error).toEndWith('e…');
    expect(details.description).toStartWith('Denied  ddd');
    expect(details.description).toHaveLength(201);
    for (const text of [details.error, details.description]) expect(text).not.toMatch(/[\p{Cc}\u202a-\u202e]/u);
  });

  it('refuses a missing or unknown state, and another browser', async () => {
    const idpId = await provider(t);
    const user = await ssoUser(t, idpId);
    const { authUrl, cookie } = await start(t, user.email);
    const back = await signInAtIdp(authUrl, user.email);
    const noState = new URL(back);
    noState.searchParams.delete('state');
    expect((await callback(t, noState, cookie)).headers.get('location')).toBe('/auth/login?sso=expired');
    const wrongState = new URL(back);
    wrongState.searchParams.set('state', 'x'.repeat(43));
    expect((await callback(t, wrongState, cookie)).headers.get('location')).toBe('/auth/login?sso=expired');
    // The right state, but without (or with another) browser's cookie: refused, and the state is spent.
    expect((await callback(t, back, 'medlocker_sso=someone-elses-cookie-value-xx')).headers.get('location')).toBe(
      '/auth/login?sso=browser',
    );
    expect((await callback(t, back, cookie)).headers.get('location')).toBe('/auth/login?sso=expired');
  });

  it('refuses an ID token for another audience, and an expired one', async () => {
    const idpId = await provider(t);
    const user = await ssoUser(t, idpId);
    for (const mode of ['wrong-audience', 'expired'] as const) {
      const { authUrl, cookie } = await start(t, user.email);
      const back = await signInAtIdp(authUrl, user.email);
      await idp.idTokenMode(mode);
      try {
        const res = await callback(t, back, cookie);
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toBe('/auth/login?sso=rejected');
      } finally {
        await idp.idTokenMode(null);
      }
    }
  });

  it('refuses unknown, unassigned and unverified accounts, and creates none', async () => {
    const idpId = await provider(t);
    const user = await ssoUser(t, idpId);
    const password = await t.createUser({
      email: `password.${Bun.randomUUIDv7()}@example.com`,
      password: 'P4ssword!long',
    });
    const unverified = await ssoUser(t, idpId, `unverified.${Bun.randomUUIDv7()}@example.com`);
    const cases: [string, string, string][] = [
      [user.email, `stranger.${Bun.randomUUIDv7()}@example.com`, 'unknown'],
      [user.email, password.email, 'unknown'],
      [unverified.email, unverified.email, 'unverified'],
    ];
    const before = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    for (const [startAs, signInAs, reason] of cases) {
      const { authUrl, cookie } = await start(t, startAs);
      const back = await signInAtIdp(authUrl, signInAs);
      expect((await callback(t, back, cookie)).headers.get('location')).toBe(`/auth/login?sso=${reason}`);
    }
    const after = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("a business's provider signs in only that business's users: never a support user or another business's", async () => {
    const businessId = await insertBusiness(t.db);
    const otherId = await insertBusiness(t.db);
    const idpId = await provider(t);
    // Tied to the business after creation, as support would by editing it.
    await t.db.updateTable('identity_providers').set({ business_id: businessId }).where('id', '=', idpId).execute();
    const assign = async (roles: NonNullable<Parameters<TestApi['createUser']>[0]>['roles']) => {
      const user = await t.createUser({ email: `scoped.${Bun.randomUUIDv7()}@example.com`, roles });
      await t.db.updateTable('users').set({ identity_provider_id: idpId }).where('id', '=', user.userId).execute();
      return user;
    };
    const own = await assign([{ name: 'Business', resourceType: 'business', resourceId: businessId }]);
    const support = await assign([{ name: 'Support' }]);
    const other = await assign([{ name: 'Business', resourceType: 'business', resourceId: otherId }]);
    const both = await assign([
      { name: 'Business', resourceType: 'business', resourceId: businessId },
      { name: 'Business', resourceType: 'business', resourceId: otherId },
    ]);
    for (const [user, expected] of [
      [support, '/auth/login?sso=unknown'],
      [other, '/auth/login?sso=unknown'],
      [both, '/auth/login?sso=unknown'],
      [own, '/businesses'],
    ] as const) {
      const { authUrl, cookie } = await start(t, user.email);
      const res = await callback(t, await signInAtIdp(authUrl, user.email), cookie);
      expect(res.headers.get('location')).toBe(expected);
    }
  });

  it("a group's provider signs in the group's users and its businesses' users, nobody else", async () => {
    const groupId = Bun.randomUUIDv7();
    await t.db
      .insertInto('groups')
      .values({ id: groupId, name: `Group ${groupId.slice(-6)}`, created: 1, updated: 1 })
      .execute();
    const memberId = await insertBusiness(t.db);
    await t.db.updateTable('businesses').set({ group_id: groupId }).where('id', '=', memberId).execute();
    const outsiderId = await insertBusiness(t.db);
    const idpId = await provider(t);
    await t.db.updateTable('identity_providers').set({ group_id: groupId }).where('id', '=', idpId).execute();
    const assign = async (roles: NonNullable<Parameters<TestApi['createUser']>[0]>['roles']) => {
      const user = await t.createUser({ email: `grouped.${Bun.randomUUIDv7()}@example.com`, roles });
      await t.db.updateTable('users').set({ identity_provider_id: idpId }).where('id', '=', user.userId).execute();
      return user;
    };
    for (const [user, expected] of [
      [await assign([{ name: 'Group', resourceType: 'group', resourceId: groupId }]), '/businesses'],
      [await assign([{ name: 'Business', resourceType: 'business', resourceId: memberId }]), '/businesses'],
      [
        await assign([{ name: 'Business', resourceType: 'business', resourceId: outsiderId }]),
        '/auth/login?sso=unknown',
      ],
      [await assign([{ name: 'Developer' }]), '/auth/login?sso=unknown'],
    ] as const) {
      const { authUrl, cookie } = await start(t, user.email);
      const res = await callback(t, await signInAtIdp(authUrl, user.email), cookie);
      expect(res.headers.get('location')).toBe(expected);
    }
  });

  it('gives no provider URL to a password user or an unknown name (the same answer)', async () => {
    const password = await t.createUser({ email: `pw.${Bun.randomUUIDv7()}@example.com`, password: 'P4ssword!long' });
    expect((await start(t, password.email)).authUrl).toBeNull();
    expect((await start(t, 'nobody@example.com')).authUrl).toBeNull();
  });

  it('says so in words when the provider is down, never a 500', async () => {
    const idpId = await provider(t, `http://127.0.0.1:${await freePort()}`);
    const user = await ssoUser(t, idpId);
    const res = await t.call('auth', 'getIdentityProviderAuthUrl', { username: user.email, returnUrl: '/' });
    expect(res.status).toBe(503);
    expect(res.body.error.message).toBe(
      'Your identity provider could not be reached. Please try again later or contact Support.',
    );
  });

  it('refuses password sign-in and password reset for a single-sign-on user', async () => {
    const idpId = await provider(t);
    const user = await t.createUser({ email: `had.pw.${Bun.randomUUIDv7()}@example.com`, password: 'P4ssword!long' });
    await t.db.updateTable('users').set({ identity_provider_id: idpId }).where('id', '=', user.userId).execute();
    const login = await t.call('auth', 'login', { username: user.email, password: 'P4ssword!long' });
    expect(login.body).toMatchObject({ ok: false, reason: 'InvalidCredentials' });
    expect((await t.call('auth', 'beginResetPassword', { email: user.email, frontEnd: 'support' })).status).toBe(200);
    const mails = (t.deps.mailer as unknown as { messages: { to: string }[] }).messages;
    expect(mails.filter((m) => m.to === user.email)).toEqual([]);
    const row = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'auth.reset.requested')
      .where('entity_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(row.details).toMatchObject({ known: true, sso: true });
  });
});
