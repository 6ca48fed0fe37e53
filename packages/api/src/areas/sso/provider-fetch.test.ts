import { afterAll, beforeAll, expect, it } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { insertIdentityProvider } from '../identity-providers/repository.ts';

/*
 * Server-side request forgery on identity provider URLs (issue 22): refused at save, at test and at
 * every fetch (sign-in), redirects checked, answers bounded in time and size, SAML metadata kept a while.
 */

let cert = '';
let hits = 0;
let server: ReturnType<typeof Bun.serve>;
const metadata = () =>
  `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.test"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.test/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`;

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'sso-ssrf-'));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=test-idp'].concat([
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]),
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === '/md') {
        hits++;
        return new Response(metadata(), { headers: { 'content-type': 'application/samlmetadata+xml' } });
      }
      if (path === '/to-metadata-service')
        return new Response(null, { status: 302, headers: { location: 'https://169.254.169.254/latest/meta-data/' } });
      if (path === '/to-md') return new Response(null, { status: 302, headers: { location: '/md' } });
      if (path === '/big') return new Response('<x>'.padEnd(2_000_000, ' '));
      if (path === '/slow') {
        await Bun.sleep(7_000);
        return new Response(metadata());
      }
      return new Response('no', { status: 404 });
    },
  });
});
afterAll(() => server.stop(true));
const local = (path: string) => `http://127.0.0.1:${server.port}${path}`;

async function create(t: TestApi, configuration: Record<string, string>, type: 'OIDC' | 'SAML' = 'OIDC') {
  const admin = await t.signIn({ support: true });
  const res = await t.call(
    'identityProviders',
    'create',
    { name: `P ${Bun.randomUUIDv7()}`, type, configuration: { clientId: 'c', ...configuration } },
    { cookie: admin.cookie },
  );
  return { res, admin };
}

/** A row saved before these checks existed (or by hand): the fetch itself must refuse it. */
async function storedRow(t: TestApi, type: 'OIDC' | 'SAML', configuration: Record<string, string>) {
  const id = Bun.randomUUIDv7();
  await insertIdentityProvider(
    t.db,
    id,
    type,
    {
      name: `Old ${id}`,
      businessId: null,
      groupId: null,
      configuration: JSON.stringify({ clientId: 'c', claims: {}, ...configuration }),
    },
    t.deps.now(),
  );
  return id;
}

const checkOf = (body: { checks: { check: string; message: string }[] }, name: string) =>
  body.checks.find((c) => c.check === name)?.message ?? '';

describeApi(
  'identity provider URLs: https to public addresses only',
  (t) => {
    it('refuses at create a URL that is not https or names a private, loopback, link-local or metadata address', async () => {
      const refused: [string, string][] = [
        ['http://sso.example', 'Must start with https://'],
        ['https://169.254.169.254/latest', 'Refused: 169.254.169.254 is a linkLocal address'],
        ['https://10.1.2.3', 'Refused: 10.1.2.3 is a private address'],
        ['https://172.16.0.1', 'Refused: 172.16.0.1 is a private address'],
        ['https://192.168.1.1', 'Refused: 192.168.1.1 is a private address'],
        ['https://127.0.0.1:8443', 'Refused: 127.0.0.1 is a loopback address'],
        ['https://localhost', 'Refused: localhost is a loopback address'],
        ['https://[fd00::1]', 'Refused: fd00::1 is a uniqueLocal address'],
        ['https://[fe80::1]', 'Refused: fe80::1 is a linkLocal address'],
        ['https://[::ffff:169.254.169.254]', 'Refused: ::ffff:a9fe:a9fe is a linkLocal address'],
        ['https://user:secret@sso.example', 'Cannot hold a user name or password'],
      ];
      for (const [issuerUrl, message] of refused) {
        const { res } = await create(t, { issuerUrl });
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual([{ path: 'configuration.issuerUrl', id: 'INVALID_VALUE', message }]);
      }
      const saml = await create(t, { metadataUrl: 'https://192.168.0.10/metadata' }, 'SAML');
      expect(saml.res.body.error.details[0]).toMatchObject({ path: 'configuration.metadataUrl' });
      const none = await t.call('identityProviders', 'list', {}, { cookie: saml.admin.cookie });
      expect(none.body.identityProviders).toEqual([]);
    });

    it('refuses the same at update, and the provider stays as it was', async () => {
      const { res, admin } = await create(t, { issuerUrl: 'https://sso.example' });
      expect(res.status).toBe(200);
      const updated = await t.call(
        'identityProviders',
        'update',
        {
          id: res.body.id,
          name: res.body.name,
          type: 'OIDC',
          configuration: { issuerUrl: 'https://10.0.0.1', clientId: 'c' },
        },
        { cookie: admin.cookie },
      );
      expect(updated.status).toBe(400);
      expect(updated.body.error.details[0].message).toBe('Refused: 10.0.0.1 is a private address');
      const got = await t.call('identityProviders', 'get', { id: res.body.id }, { cookie: admin.cookie });
      expect(got.body.configuration.issuerUrl).toBe('https://sso.example');
    });

    it('refuses at test and at sign-in a stored provider URL it may not fetch, without fetching it', async () => {
      const admin = await t.signIn({ support: true });
      const oidc = await storedRow(t, 'OIDC', { issuerUrl: local('') });
      const tested = await t.call('identityProviders', 'test', { id: oidc }, { cookie: admin.cookie });
      expect(tested.body.ok).toBe(false);
      expect(checkOf(tested.body, 'Discovery')).toBe(
        `The issuer URL is refused: ${local('/')}: Must start with https://`,
      );
      const saml = await storedRow(t, 'SAML', { metadataUrl: 'https://10.0.0.1/metadata' });
      const started = Date.now();
      const samlTested = await t.call('identityProviders', 'test', { id: saml }, { cookie: admin.cookie });
      expect(checkOf(samlTested.body, 'Metadata')).toContain('Refused: 10.0.0.1 is a private address');
      // Nothing was tried: no connection to wait for.
      expect(Date.now() - started).toBeLessThan(2_000);

      const before = hits;
      const user = await t.createUser({ email: `old.${Bun.randomUUIDv7()}@example.com`, support: true });
      await t.db.updateTable('users').set({ identity_provider_id: oidc }).where('id', '=', user.userId).execute();
      const signIn = await t.call('auth', 'getIdentityProviderAuthUrl', { username: user.email, returnUrl: '/' });
      expect(signIn.status).toBe(503);
      expect(signIn.body.error.message).toBe(
        'Your identity provider could not be reached. Please try again later or contact Support.',
      );
      expect(hits).toBe(before);
    });
  },
  undefined,
  // The production rule (tests otherwise allow http to loopback: testing.ts).
  { SSO_ALLOW_HTTP_LOOPBACK: '0' },
);

describeApi(
  'identity provider URLs with SSO_ALLOW_HTTP_LOOPBACK=1',
  (t) => {
    it('lets plain http through to loopback only', async () => {
      expect((await create(t, { issuerUrl: local('') })).res.status).toBe(200);
      expect((await create(t, { issuerUrl: 'http://localhost:9' })).res.status).toBe(200);
      const lan = await create(t, { issuerUrl: 'http://10.0.0.1' });
      expect(lan.res.body.error.details[0].message).toBe(
        'Must start with https:// (plain http only to a loopback address)',
      );
      const meta = await create(t, { issuerUrl: 'https://169.254.169.254' });
      expect(meta.res.body.error.details[0].message).toBe('Refused: 169.254.169.254 is a linkLocal address');
    });

    it('does not follow a redirect to the metadata address, and bounds the answer in size and time', async () => {
      const test = async (path: string) => {
        const { res, admin } = await create(t, { metadataUrl: local(path) }, 'SAML');
        expect(res.status).toBe(200);
        const tested = await t.call('identityProviders', 'test', { id: res.body.id }, { cookie: admin.cookie });
        return checkOf(tested.body, 'Metadata');
      };
      expect(await test('/to-metadata-service')).toContain('Refused: 169.254.169.254 is a linkLocal address');
      expect(await test('/to-md')).toBe('Entity https://idp.test');
      expect(await test('/big')).toContain("The provider's answer is larger than 1 MB");
      const started = Date.now();
      expect(await test('/slow')).toContain('No answer within 5 s');
      expect(Date.now() - started).toBeLessThan(6_500);
    }, 30_000);

    it('reads SAML metadata by URL once for several sign-ins, not at every one', async () => {
      const { res } = await create(t, { metadataUrl: local('/md') }, 'SAML');
      expect(res.status).toBe(200);
      const user = await t.createUser({ email: `md.${Bun.randomUUIDv7()}@example.com`, support: true });
      await t.db
        .updateTable('users')
        .set({ identity_provider_id: res.body.id })
        .where('id', '=', user.userId)
        .execute();
      const before = hits;
      for (let i = 0; i < 3; i++) {
        const started = await t.call('auth', 'getIdentityProviderAuthUrl', { username: user.email, returnUrl: '/' });
        expect(started.status).toBe(200);
        expect(new URL(started.body.authUrl ?? '').origin).toBe('https://idp.test');
      }
      expect(hits - before).toBeLessThanOrEqual(1);
    });
  },
  undefined,
  { SSO_ALLOW_HTTP_LOOPBACK: '1' },
);
