import { expect, it } from 'bun:test';
import { describeApi } from '../testing/api.ts';
import { validBusiness } from '../testing/businesses.ts';

describeApi('the principal of a session', (t) => {
  const request = (cookie: string) => new Request('http://medlocker.test/api/auth/session', { headers: { cookie } });

  it('carries the businesses and groups its roles reach, a group role reaching the businesses of the group, with Admin', async () => {
    const support = await t.signIn({ support: true });
    const as = { cookie: support.cookie };
    const group = (await t.call('groups', 'createGroup', { name: 'North' }, as)).body.group;
    const inGroup = (await t.call('businesses', 'createBusiness', validBusiness('Leeds'), as)).body.business;
    const alone = (await t.call('businesses', 'createBusiness', validBusiness('York'), as)).body.business;
    await t.call('businesses', 'createBusiness', validBusiness('Hull'), as);
    await t.call('businesses', 'linkGroup', { groupId: group.id, businessIds: [inGroup.id] }, as);
    const user = await t.signIn({
      roles: [
        { name: 'Group', resourceType: 'group', resourceId: group.id, accessLevels: ['Admin'] },
        { name: 'Business', resourceType: 'business', resourceId: alone.id },
      ],
    });
    const principal = await t.deps.auth.principalOf(request(user.cookie), { ip: null, now: t.deps.now() });
    expect(principal?.scopes).toEqual(['pharmacy']);
    expect(Object.fromEntries(principal?.businesses ?? [])).toEqual({
      [inGroup.id]: { admin: true },
      [alone.id]: { admin: false },
    });
    expect(Object.fromEntries(principal?.groups ?? [])).toEqual({ [group.id]: { admin: true } });
    // The console reads the same scope from auth.session and lets the user in.
    expect((await t.call('auth', 'session', {}, { cookie: user.cookie })).body.scopes).toEqual(['pharmacy']);
  });

  it('sees a role added at the very next call', async () => {
    const support = await t.signIn({ support: true });
    const business = (await t.call('businesses', 'createBusiness', validBusiness('Leeds'), { cookie: support.cookie }))
      .body.business;
    const user = await t.signIn();
    expect(
      (await t.call('machines', 'listMachines', { businessId: business.id }, { cookie: user.cookie })).status,
    ).toBe(404);
    await t.call(
      'auth',
      'addRoles',
      {
        addIdpByDefault: false,
        email: user.email,
        frontEnd: 'pharmacy',
        resourceId: business.id,
        resourceType: 'business',
        roles: [{ name: 'Business', accessLevels: [] }],
      },
      { cookie: support.cookie },
    );
    expect(
      (await t.call('machines', 'listMachines', { businessId: business.id }, { cookie: user.cookie })).status,
    ).toBe(200);
  });
});
