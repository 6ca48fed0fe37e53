import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';

describeApi('identity providers', (t) => {
  it('lists providers by name and shows one without its client secret (an older row kept it in clear)', async () => {
    const admin = await t.signIn({ support: true });
    for (const [id, name] of [
      ['b', 'Zeta SSO'],
      ['a', 'Alpha SSO'],
    ]) {
      await t.db
        .insertInto('identity_providers')
        .values({
          id: id as string,
          name: name as string,
          type: 'OIDC',
          configuration: JSON.stringify({
            clientId: `client-${id}`,
            clientSecret: 'very secret',
            issuerUrl: 'https://sso.example',
          }),
          created: 1,
          updated: 2,
        })
        .execute();
    }
    const list = await t.call('identityProviders', 'list', {}, { cookie: admin.cookie });
    expect(list.body.identityProviders).toEqual([
      { id: 'a', name: 'Alpha SSO', type: 'OIDC', businessId: null, groupId: null },
      { id: 'b', name: 'Zeta SSO', type: 'OIDC', businessId: null, groupId: null },
    ]);
    const one = await t.call('identityProviders', 'get', { id: 'a' }, { cookie: admin.cookie });
    expect(one.body).toMatchObject({
      id: 'a',
      name: 'Alpha SSO',
      type: 'OIDC',
      created: 1,
      updated: 2,
      businessId: null,
      callbackUrl: 'http://medlocker.test/api/auth/callback',
      configuration: { clientId: 'client-a', issuerUrl: 'https://sso.example', clientSecretSet: true },
    });
    expect(JSON.stringify(one.body)).not.toContain('very secret');
    expect((await t.call('identityProviders', 'get', { id: 'zz' }, { cookie: admin.cookie })).status).toBe(404);
  });

  it('creates, updates and deletes a provider; the secret is sealed, write-only, kept when left empty', async () => {
    const admin = await t.signIn({ support: true });
    const created = await t.call(
      'identityProviders',
      'create',
      {
        name: 'Contoso Entra',
        type: 'OIDC',
        configuration: {
          issuerUrl: 'https://login.example/tenant/v2.0/',
          clientId: 'abc',
          clientSecret: 'the-secret-value',
          scopes: 'email profile',
          claims: { email: 'upn' },
        },
      },
      { cookie: admin.cookie },
    );
    expect(created.status).toBe(200);
    expect(created.body.configuration).toMatchObject({
      issuerUrl: 'https://login.example/tenant/v2.0',
      clientSecretSet: true,
      claims: { email: 'upn', emailVerified: '', givenName: '', familyName: '' },
    });
    const stored = await t.db
      .selectFrom('identity_providers')
      .select('configuration')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.configuration)).not.toContain('the-secret-value');
    const sealed = (stored.configuration as { clientSecretSealed: string }).clientSecretSealed;
    expect(sealed).toStartWith('v2.');

    const updated = await t.call(
      'identityProviders',
      'update',
      {
        id: created.body.id,
        name: 'Contoso',
        type: 'OIDC',
        configuration: { issuerUrl: 'https://login.example', clientId: 'abc', clientSecret: '' },
      },
      { cookie: admin.cookie },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('Contoso');
    const again = await t.db
      .selectFrom('identity_providers')
      .select('configuration')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect((again.configuration as { clientSecretSealed: string }).clientSecretSealed).toBe(sealed);

    const changeType = await t.call(
      'identityProviders',
      'update',
      { id: created.body.id, name: 'Contoso', type: 'SAML', configuration: { metadataUrl: 'https://idp.example/md' } },
      { cookie: admin.cookie },
    );
    expect(changeType.status).toBe(400);
    expect(
      (await t.call('identityProviders', 'delete', { id: created.body.id }, { cookie: admin.cookie })).body,
    ).toEqual({ ok: true });
    expect(
      (await t.call('identityProviders', 'delete', { id: created.body.id }, { cookie: admin.cookie })).status,
    ).toBe(404);
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const admin = await t.signIn({ support: true });
    const bad = [
      [
        { name: 'X', type: 'OIDC', configuration: { issuerUrl: 'not a url', clientId: 'a' } },
        'configuration.issuerUrl',
      ],
      [{ name: 'X', type: 'OIDC', configuration: { issuerUrl: 'https://a.example' } }, 'configuration.clientId'],
      [{ name: 'X', type: 'SAML', configuration: {} }, 'configuration.metadataUrl'],
      [
        {
          name: 'X',
          type: 'OIDC',
          businessId: 'nope',
          configuration: { issuerUrl: 'https://a.example', clientId: 'a' },
        },
        'businessId',
      ],
    ] as const;
    for (const [input, path] of bad) {
      const res = await t.call('identityProviders', 'create', input, { cookie: admin.cookie });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe(path);
    }
    // Every empty required field at once, in SPEC's words, not one per try.
    const empty = await t.call(
      'identityProviders',
      'create',
      { name: 'X', type: 'OIDC', configuration: { issuerUrl: ' ', clientId: '' } },
      { cookie: admin.cookie },
    );
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([
      { path: 'configuration.issuerUrl', id: 'REQUIRED', message: 'Please enter a value' },
      { path: 'configuration.clientId', id: 'REQUIRED', message: 'Please enter a value' },
    ]);
    const ok = { name: 'Same', type: 'OIDC', configuration: { issuerUrl: 'https://a.example', clientId: 'a' } };
    expect((await t.call('identityProviders', 'create', ok, { cookie: admin.cookie })).status).toBe(200);
    const dup = await t.call('identityProviders', 'create', { ...ok, name: 'same' }, { cookie: admin.cookie });
    expect(dup.status).toBe(400);
    expect(dup.body.error.details[0].path).toBe('name');
    const n = await t.db.selectFrom('identity_providers').select('id').execute();
    expect(n.length).toBe(1);
  });

  it('is for support staff only', async () => {
    const pharmacy = await t.signIn();
    for (const method of ['list', 'create', 'test'] as const) {
      const res = await t.call(
        'identityProviders',
        method,
        { id: 'x', name: 'x', type: 'OIDC', configuration: {} },
        { cookie: pharmacy.cookie },
      );
      expect(res.status).toBe(403);
    }
  });

  it('test says in words what is wrong with a provider it cannot reach or a SAML metadata it cannot use', async () => {
    const admin = await t.signIn({ support: true });
    const oidc = await t.call(
      'identityProviders',
      'create',
      { name: 'Down', type: 'OIDC', configuration: { issuerUrl: 'http://127.0.0.1:9', clientId: 'a' } },
      { cookie: admin.cookie },
    );
    const down = await t.call('identityProviders', 'test', { id: oidc.body.id }, { cookie: admin.cookie });
    expect(down.body.ok).toBe(false);
    expect(down.body.checks.find((c: { check: string }) => c.check === 'Discovery')).toMatchObject({ ok: false });
    expect(down.body.checks.find((c: { check: string }) => c.check === 'Discovery')?.message).toStartWith(
      'Discovery at http://127.0.0.1:9 failed',
    );
    const saml = await t.call(
      'identityProviders',
      'create',
      { name: 'Saml', type: 'SAML', configuration: { metadataXml: '<html>not metadata</html>' } },
      { cookie: admin.cookie },
    );
    const bad = await t.call('identityProviders', 'test', { id: saml.body.id }, { cookie: admin.cookie });
    expect(bad.body.ok).toBe(false);
    expect(bad.body.checks[0]?.message).toContain('is not a SAML identity provider description');
  });
});

describeApi(
  'identity providers without PUBLIC_URL (development)',
  (t) => {
    it('gives the full redirect URI to register, and asks for a name in the words of SPEC §8', async () => {
      const admin = await t.signIn({ support: true });
      const input = { name: '', type: 'OIDC', configuration: { issuerUrl: 'https://sso.example', clientId: 'c' } };
      const unnamed = await t.call('identityProviders', 'create', input, { cookie: admin.cookie });
      expect(unnamed.status).toBe(400);
      expect(unnamed.body.error.details).toContainEqual(
        expect.objectContaining({ path: 'name', message: 'Please enter a value' }),
      );
      const created = await t.call(
        'identityProviders',
        'create',
        { ...input, name: 'Dev SSO' },
        { cookie: admin.cookie },
      );
      const one = await t.call('identityProviders', 'get', { id: created.body.id }, { cookie: admin.cookie });
      expect(one.body.callbackUrl).toMatch(/^https?:\/\/[^/]+\/api\/auth\/callback$/);
    });
  },
  undefined,
  { PUBLIC_URL: '' },
);
