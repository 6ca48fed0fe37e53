import { beforeAll, expect, it } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { describeApi, TEST_ORIGIN, type TestApi } from '../testing.ts';

/*
 * SAML sign-in against a small test IdP: responses built here and signed with a test key (openssl
 * makes the key and certificate), posted to our assertion consumer service as a browser would.
 */

const IDP_ENTITY = 'https://idp.test';
let key = '';
let cert = '';
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=test-idp',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  key = readFileSync(join(dir, 'key.pem'), 'utf8');
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
});

function sign(xml: string, element: 'Assertion' | 'Response'): string {
  const sig = new SignedXml({
    privateKey: key,
    publicCert: cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const path = element === 'Assertion' ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
  sig.addReference({
    xpath: path,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { location: { reference: `${path}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

function response(o: { requestId: string; acs: string; audience: string; email: string; signed?: boolean }): string {
  const now = new Date();
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const id = () => `_${Bun.randomUUIDv7().replaceAll('-', '')}`;
  let xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${at(0)}" Destination="${o.acs}" InResponseTo="${o.requestId}"><saml:Issuer>${IDP_ENTITY}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ID="${id()}" Version="2.0" IssueInstant="${at(0)}"><saml:Issuer>${IDP_ENTITY}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${o.requestId}" NotOnOrAfter="${at(300_000)}" Recipient="${o.acs}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${at(-60_000)}" NotOnOrAfter="${at(300_000)}"><saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${at(0)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement></saml:Assertion></samlp:Response>`;
  if (o.signed !== false) xml = sign(sign(xml, 'Assertion'), 'Response');
  return Buffer.from(xml).toString('base64');
}

async function setUp(t: TestApi) {
  const admin = await t.signIn({ support: true });
  const created = await t.call(
    'identityProviders',
    'create',
    {
      name: `SAML ${Bun.randomUUIDv7()}`,
      type: 'SAML',
      configuration: { ssoUrl: `${IDP_ENTITY}/sso`, certificate: cert, entityId: IDP_ENTITY },
    },
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
  return requestId;
}

const post = (t: TestApi, acs: string, samlResponse: string) =>
  t.raw(new URL(acs).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: IDP_ENTITY },
    body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    redirect: 'manual',
  });

describeApi('single sign-on with SAML', (t) => {
  it('signs a user in with a signed response to our request, and refuses it replayed', async () => {
    const { user, acs, spMetadata } = await setUp(t);
    expect(spMetadata).toContain(`entityID="${TEST_ORIGIN}/sso/saml/`);
    expect(spMetadata).toContain(acs);
    const requestId = await startAt(t, user.email);
    const audience = acs.replace(/\/acs$/, '');
    const signed = response({ requestId, acs, audience, email: user.email });
    const res = await post(t, acs, signed);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/groups');
    const session = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('medlocker_session='))
      ?.split(';')[0];
    const me = await t.call('auth', 'session', {}, { cookie: session });
    expect(me.body.user.email).toBe(user.email);
    // The same response again: its request is answered and its assertion seen.
    const again = await post(t, acs, signed);
    expect(again.headers.get('location')).toBe('/auth/login?sso=expired');
  });

  it('refuses an unsigned response, another audience, an unknown request and an unknown user', async () => {
    const { user, acs } = await setUp(t);
    const audience = acs.replace(/\/acs$/, '');
    let requestId = await startAt(t, user.email);
    expect(
      (await post(t, acs, response({ requestId, acs, audience, email: user.email, signed: false }))).headers.get(
        'location',
      ),
    ).toBe('/auth/login?sso=rejected');
    requestId = await startAt(t, user.email);
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
    requestId = await startAt(t, user.email);
    expect(
      (await post(t, acs, response({ requestId, acs, audience, email: 'stranger@example.com' }))).headers.get(
        'location',
      ),
    ).toBe('/auth/login?sso=unknown');
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
