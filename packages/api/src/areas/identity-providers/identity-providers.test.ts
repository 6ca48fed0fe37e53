import { expect, it } from 'bun:test';
import { describeApi } from '../../testing.ts';

describeApi('identity providers', (t) => {
  it('lists providers by name and shows one without its client secret', async () => {
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
      { id: 'a', name: 'Alpha SSO' },
      { id: 'b', name: 'Zeta SSO' },
    ]);
    const one = await t.call('identityProviders', 'get', { id: 'a' }, { cookie: admin.cookie });
    expect<unknown>(one.body).toEqual({
      id: 'a',
      name: 'Alpha SSO',
      type: 'OIDC',
      created: 1,
      updated: 2,
      configuration: { clientId: 'client-a', issuerUrl: 'https://sso.example' },
    });
    expect(JSON.stringify(one.body)).not.toContain('very secret');
    expect((await t.call('identityProviders', 'get', { id: 'zz' }, { cookie: admin.cookie })).status).toBe(404);
  });
});
