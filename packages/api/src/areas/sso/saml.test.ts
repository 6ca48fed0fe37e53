import { beforeAll, expect, it } from 'bun:test';
import { inflateRawSync } from 'node:zlib';
import { describeApi, TEST_ORIGIN, type TestApi } from '../../testing/api.ts';
import { makeSigningKey, type SigningKey, samlResponse } from '../../testing/identity-providers/saml-idp.ts';

/*
 * SAML sign-in against a small test IdP: responses built here and signed with a test key (openssl
 * makes the key and certificate), posted to our assertion consumer service as a browser would.
 */

const IDP_ENTITY = 'https://idp.test';
let signing: SigningKey = { key: '', cert: '' };
let cert = '';
beforeAll(() => {
  signing = makeSigningKey();
  cert = signing.cert;
});

const response = (o: { requestId: string; acs: string; audience: string; email: string; signed?: boolean }) =>
  samlResponse({ ...o, signing, issuer: IDP_ENTITY });

async function setUp(
  t: TestApi,
  configuration: Record<string, string> = { ssoUrl: `${IDP_ENTITY}/sso`, certificate: cert, entityId: IDP_ENTITY },
) {
  const admin = await t.signIn({ support: true });
  const created = await t.call(
    'identityProviders',
    'create',
    { name: `SAML ${Bun.randomUUIDv7()}`, type: 'SAML', configuration },
    { cookie: admin.cookie },
  );
  expect(created.status).toBe(200);
  const idpId = created.body.id as string;
  const user = await t.createUser({ email: `saml.${Bun.randomUUIDv7()}@example.com`, support: true });
  await t.db.updateTable('users').set({ identity_provider_id: idpId }).where('id', '=', user.userId).execute();
  const got = await t.call('identityProviders', 'get', { id: idpId }, { cookie: admin.cookie });
  return { idpId, user, acs: got.body.callbackUrl as string, spMetadata: got.body.spMetadata as string };
}

async function startAt(t: TestApi, email: string) {
  const res = await t.call('auth', 'getIdentityProviderAuthUrl', { username: email, returnUrl: '/groups' });
  expect(res.status).toBe(200);
  const url = new URL(res.body.authUrl as string);
  expect(url.origin + url.pathname).toBe(`${IDP_ENTITY}/sso`);
  const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
  const requestId = /\sID="([^"]+)"/.exec(request)?.[1] ?? '';
  expect(requestId).not.toBe('');
  const browser = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('medlocker_sso='))
    ?.split(';')[0];
  expect(browser).toBeDefined();
  return { requestId, browser: browser ?? '' };
}

/** Posts to the ACS (no cookie: a cross-site POST) and follows its 303 to the continuation with `cookie`. */
async function postAndContinue(t: TestApi, acs: string, samlResponse: string, cookie: string | null) {
  const posted = await post(t, acs, samlResponse);
  expect(posted.status).toBe(303);
  const location = posted.headers.get('location') ?? '';
  if (!location.startsWith('/sso/saml/continue?')) return { location, posted, continued: null };
  expect(posted.headers.getSetCookie()).toEqual([]);
  const continued = await t.raw(location, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  expect(continued.status).toBe(303);
  return { location: continued.headers.get('location'), posted, continued };
}

const sessionOf = (res: Response | null) =>
  res?.headers
    .getSetCookie()
    .find((c) => c.startsWith('medlocker_session='))
    ?.split(';')[0];

const post = (t: TestApi, acs: string, samlResponse: string) =>
  t.raw(new URL(acs).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: IDP_ENTITY },
    body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    redirect: 'manual',
  });

describeApi('single sign-on with SAML', (t) => {
  it('signs a user in through the continuation in the browser that started, and refuses replays', async () => {
    const { user, acs, spMetadata } = await setUp(t);
    expect(spMetadata).toContain(`entityID="${TEST_ORIGIN}/sso/saml/`);
    expect(spMetadata).toContain(acs);
    const { requestId, browser } = await startAt(t, user.email);
    const audience = acs.replace(/\/acs$/, '');
    const signed = response({ requestId, acs, audience, email: user.email });
    const { location, continued, posted } = await postAndContinue(t, acs, signed, browser);
    expect(location).toBe('/groups');
    expect(continued?.headers.getSetCookie().some((c) => c.startsWith('medlocker_sso=;'))).toBe(true);
    const me = await t.call('auth', 'session', {}, { cookie: sessionOf(continued) });
    expect(me.body.user.email).toBe(user.email);
    // The same response again: its request is answered and its assertion seen.
    const again = await post(t, acs, signed);
    expect(again.headers.get('location')).toBe('/auth/login?sso=expired');
    // The same continuation again, even in the right browser: used.
    const replayed = await t.raw(posted.headers.get('location') ?? '', {
      headers: { cookie: browser },
      redirect: 'manual',
    });
    expect(replayed.headers.get('location')).toBe('/auth/login?sso=expired');
    expect(sessionOf(replayed)).toBeUndefined();
  });

  it('refuses the continuation in another browser (login CSRF), changing nothing', async () => {
    const { user, acs } = await setUp(t);
    const audience = acs.replace(/\/acs$/, '');
    // The attacker starts a sign-in and takes their own signed response...
    const attacker = await startAt(t, user.email);
    const posted = await post(t, acs, response({ requestId: attacker.requestId, acs, audience, email: user.email }));
    const continuation = posted.headers.get('location') ?? '';
    expect(continuation).toStartWith('/sso/saml/continue?ticket=');
    // ...and a victim's browser, with no sign-in of its own or with its own one, follows it.
    const victim = await startAt(t, user.email);
    for (const cookie of [null, victim.browser, 'medlocker_sso=not-a-token']) {
      const res = await t.raw(continuation, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/auth/login?sso=browser');
      // No session, and the victim's own sign-in cookie is left alone.
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    const refused = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'auth.sso.refused')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(refused.details)).toContain('another browser');
    // The victim's own sign-in still works.
    const own = await postAndContinue(
      t,
      acs,
      response({ requestId: victim.requestId, acs, audience, email: user.email }),
      victim.browser,
    );
    expect(own.location).toBe('/groups');
    expect(sessionOf(own.continued)).toBeDefined();
  });

  it('refuses a continuation after its two minutes', async () => {
    const { user, acs } = await setUp(t);
    const audience = acs.replace(/\/acs$/, '');
    const { requestId, browser } = await startAt(t, user.email);
    const posted = await post(t, acs, response({ requestId, acs, audience, email: user.email }));
    t.advance(2 * 60_000 + 1);
    const late = await t.raw(posted.headers.get('location') ?? '', {
      headers: { cookie: browser },
      redirect: 'manual',
    });
    expect(late.headers.get('location')).toBe('/auth/login?sso=expired');
    expect(sessionOf(late)).toBeUndefined();
    const bogus = await t.raw('/sso/saml/continue?ticket=nothing', {
      headers: { cookie: browser },
      redirect: 'manual',
    });
    expect(bogus.headers.get('location')).toBe('/auth/login?sso=expired');
  });

  it('refuses an unsigned response, another audience, an unknown request and an unknown user', async () => {
    const { user, acs } = await setUp(t);
    const audience = acs.replace(/\/acs$/, '');
    let { requestId, browser } = await startAt(t, user.email);
    expect(
      (await post(t, acs, response({ requestId, acs, audience, email: user.email, signed: false }))).headers.get(
        'location',
      ),
    ).toBe('/auth/login?sso=rejected');
    ({ requestId } = await startAt(t, user.email));
    expect(
      (
        await post(t, acs, response({ requestId, acs, audience: 'https://someone-else.example', email: user.email }))
      ).headers.get('location'),
    ).toBe('/auth/login?sso=rejected');
    expect(
      (await post(t, acs, response({ requestId: '_never-asked', acs, audience, email: user.email }))).headers.get(
        'location',
      ),
    ).toBe('/auth/login?sso=expired');
    ({ requestId, browser } = await startAt(t, user.email));
    const unknown = await postAndContinue(
      t,
      acs,
      response({ requestId, acs, audience, email: 'stranger@example.com' }),
      browser,
    );
    expect(unknown.location).toBe('/auth/login?sso=unknown');
  });

  it('during a certificate rollover takes a response signed with either published key, never with the encryption key', async () => {
    const [rolled, encryption] = [makeSigningKey(), makeSigningKey()];
    const keyOf = (pem: string, use: string) =>
      `<md:KeyDescriptor use="${use}"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
    const metadataXml = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${IDP_ENTITY}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keyOf(encryption.cert, 'encryption')}${keyOf(cert, 'signing')}${keyOf(rolled.cert, 'signing')}<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${IDP_ENTITY}/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
    const { user, acs } = await setUp(t, { metadataXml, entityId: IDP_ENTITY });
    const audience = acs.replace(/\/acs$/, '');
    for (const key of [signing, rolled]) {
      const { requestId, browser } = await startAt(t, user.email);
      const signed = samlResponse({ requestId, acs, audience, email: user.email, signing: key, issuer: IDP_ENTITY });
      expect((await postAndContinue(t, acs, signed, browser)).location).toBe('/groups');
    }
    const { requestId } = await startAt(t, user.email);
    const forged = samlResponse({
      requestId,
      acs,
      audience,
      email: user.email,
      signing: encryption,
      issuer: IDP_ENTITY,
    });
    expect((await post(t, acs, forged)).headers.get('location')).toBe('/auth/login?sso=rejected');
  });

  it('refuses a signed response that names no one (an empty NameID), storing nothing', async () => {
    const { user, acs } = await setUp(t);
    const audience = acs.replace(/\/acs$/, '');
    const { requestId } = await startAt(t, user.email);
    const before = await t.db
      .selectFrom('sso_continuations')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const posted = await post(t, acs, response({ requestId, acs, audience, email: '' }));
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/auth/login?sso=rejected');
    const after = await t.db
      .selectFrom('sso_continuations')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
  });

  it('refuses a SAML response past 512 KB before reading it as XML', async () => {
    const { user, acs } = await setUp(t);
    await startAt(t, user.email);
    const huge = Buffer.from(`<samlp:Response>${'<a/>'.repeat(300_000)}</samlp:Response>`).toString('base64');
    const res = await post(t, acs, huge);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/auth/login?sso=rejected');
    const refused = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'auth.sso.refused')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(refused.details)).toContain('larger than 512 KB');
  });
});
