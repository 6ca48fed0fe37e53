import { expect, it } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { describeApi } from '../../testing/api.ts';
import { dataUrl, pngBytes, supportSession, testDataDir, validBusiness } from '../../testing/businesses.ts';
import { eventually, listen } from '../../testing/hub.ts';
import { assertGroupAcceptsMembers } from './archive-rules.ts';

type Push = { action: string; params: Record<string, unknown> };

function consoleSocket(url: string, cookie: string) {
  const pushes: Push[] = [];
  const ws = new WebSocket(`${url}/ws`, { headers: { cookie } } as never);
  ws.onmessage = (m) => pushes.push(JSON.parse(String(m.data)));
  const opened = new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error('refused'));
  });
  return { ws, pushes, opened };
}

describeApi(
  'groups',
  (t) => {
    it('creates a group with optional email and address, checked when given', async () => {
      const { as } = await supportSession(t);
      const bare = await t.call('groups', 'createGroup', { name: 'North' }, as);
      expect(bare.body.group).toMatchObject({ name: 'North', email: '', parentId: null, archived: null, logo: null });
      const full = await t.call(
        'groups',
        'createGroup',
        {
          name: 'South',
          email: 'south@example.com',
          address: { line1: '2 Quay', postcode: 'bs1 4dj' },
          parentId: bare.body.group.id,
        },
        as,
      );
      expect(full.body.group.address).toEqual({
        line1: '2 Quay',
        line2: null,
        line3: null,
        postTown: null,
        postcode: 'BS1 4DJ',
      });
      const bad = await t.call('groups', 'createGroup', { name: '', email: 'x', address: { postcode: 'nope' } }, as);
      expect(bad.status).toBe(400);
      expect(
        Object.fromEntries(
          (bad.body.error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]),
        ),
      ).toEqual({ name: 'Please enter a value', email: 'Invalid email', 'address.postcode': 'Invalid UK postcode' });
      const loop = await t.call(
        'groups',
        'updateGroup',
        { id: bare.body.group.id, name: 'North', parentId: full.body.group.id },
        as,
      );
      expect(loop.status).toBe(400);
      expect(loop.body.error.message).toBe('A group cannot be nested inside itself');
    }, 30_000);

    it('keeps an archived group from being edited, linked to or given users, with who archived it', async () => {
      const { admin, as } = await supportSession(t);
      const group = (await t.call('groups', 'createGroup', { name: 'North' }, as)).body.group;
      const business = (await t.call('businesses', 'createBusiness', validBusiness(), as)).body.business;
      await t.call('businesses', 'linkGroup', { groupId: group.id, businessIds: [business.id] }, as);
      const other = (await t.call('businesses', 'createBusiness', validBusiness('Other'), as)).body.business;

      const archived = await t.call('groups', 'archiveGroup', { id: group.id }, as);
      expect(archived.body.group.archived).toEqual({
        at: t.deps.now(),
        userId: admin.userId,
        userDisplayName: 'Sam Support',
      });

      const edit = await t.call('groups', 'updateGroup', { id: group.id, name: 'Renamed' }, as);
      expect(edit.status).toBe(409);
      expect(edit.body.error.message).toBe('The group North is archived: unarchive it before changing it');
      const link = await t.call('businesses', 'linkGroup', { groupId: group.id, businessIds: [other.id] }, as);
      expect(link.status).toBe(409);
      expect(link.body.error.message).toBe(
        'The group North is archived: businesses cannot be linked to it until it is unarchived',
      );
      const logo = await t.call(
        'groups',
        'uploadLogo',
        { entityId: group.id, dataUrl: dataUrl('image/png', pngBytes()) },
        as,
      );
      expect(logo.status).toBe(409);
      await expect(assertGroupAcceptsMembers(t.db, group.id, 'users')).rejects.toThrow(
        'The group North is archived: users cannot be added to it until it is unarchived',
      );
      // Taking a business out of an archived group is allowed (the console warns it cannot go back).
      expect((await t.call('businesses', 'unlinkGroup', { id: business.id }, as)).status).toBe(200);

      expect((await t.call('groups', 'listGroups', {}, as)).body.groups).toEqual([]);
      expect((await t.call('groups', 'listGroups', { archived: true }, as)).body.groups.map((g) => g.id)).toEqual([
        group.id,
      ]);
      await t.call('groups', 'unarchiveGroup', { id: group.id }, as);
      expect((await t.call('groups', 'updateGroup', { id: group.id, name: 'Renamed' }, as)).body.group.name).toBe(
        'Renamed',
      );
      expect((await t.call('businesses', 'linkGroup', { groupId: group.id, businessIds: [other.id] }, as)).status).toBe(
        200,
      );
      await assertGroupAcceptsMembers(t.db, group.id, 'users');
      expect((await listAudit(t.db, 'group.update'))[0]?.details).toEqual({ changed: ['name'] });
    }, 30_000);

    it('refuses a Group role on an archived group through auth.addRoles', async () => {
      const { as } = await supportSession(t);
      const group = (await t.call('groups', 'createGroup', { name: 'North' }, as)).body.group;
      await t.call('groups', 'archiveGroup', { id: group.id }, as);
      const addUser = await t.call(
        'auth',
        'addRoles',
        {
          addIdpByDefault: false,
          email: 'new.admin@example.com',
          frontEnd: 'pharmacy',
          resourceId: group.id,
          resourceType: 'group',
          roles: [{ name: 'Group', description: '', resource: group.id, accessLevels: [] }],
        },
        as,
      );
      expect(addUser.status).toBe(409);
      expect(addUser.body.error.message).toBe(
        'The group North is archived: users cannot be added to it until it is unarchived',
      );
    }, 30_000);

    it("lists a group's users by prefix of email, given, family or full name, with access levels", async () => {
      const { as } = await supportSession(t);
      const group = (await t.call('groups', 'createGroup', { name: 'North' }, as)).body.group;
      const role = (accessLevels: string[]) => [
        { name: 'Group' as const, resourceType: 'group' as const, resourceId: group.id, accessLevels },
      ];
      await t.createUser({
        email: 'ada@example.com',
        givenName: 'Ada',
        familyName: 'Lovelace',
        roles: role(['Admin']),
      });
      await t.createUser({ email: 'zed@example.com', givenName: 'Grace', familyName: 'Hopper', roles: role([]) });
      await t.createUser({ email: 'out@example.com', givenName: 'Ada', familyName: 'Other' });
      const find = async (filterText: string) =>
        (
          await t.call('users', 'getUsersByRole', { roleName: 'Group', roleResource: group.id, filterText }, as)
        ).body.users.map((u) => `${u.email} ${u.accessLevels.join(',')}`);
      expect(await find('')).toEqual(['ada@example.com Admin', 'zed@example.com ']);
      expect(await find('ADA')).toEqual(['ada@example.com Admin']);
      expect(await find('hop')).toEqual(['zed@example.com ']);
      expect(await find('grace h')).toEqual(['zed@example.com ']);
      expect(await find('zed@')).toEqual(['zed@example.com ']);
    }, 30_000);

    it('stores and clears a group logo with its background colour', async () => {
      const { as } = await supportSession(t);
      const group = (await t.call('groups', 'createGroup', { name: 'North' }, as)).body.group;
      const up = await t.call(
        'groups',
        'uploadLogo',
        { entityId: group.id, dataUrl: dataUrl('image/png', pngBytes()) },
        as,
      );
      const set = await t.call(
        'groups',
        'updateLogo',
        { id: group.id, path: up.body.path, backgroundColor: '#abcdef' },
        as,
      );
      expect(set.body.group.logo).toEqual({ path: up.body.path, backgroundColor: '#abcdef' });
      const badColour = await t.call(
        'groups',
        'updateLogo',
        { id: group.id, path: up.body.path, backgroundColor: 'red' },
        as,
      );
      expect(badColour.status).toBe(400);
      await t.call('groups', 'archiveGroup', { id: group.id }, as);
      expect((await t.call('groups', 'deleteLogo', { key: up.body.path }, as)).status).toBe(409);
      await t.call('groups', 'unarchiveGroup', { id: group.id }, as);
      expect((await t.call('groups', 'deleteLogo', { key: up.body.path }, as)).status).toBe(200);
      expect((await t.call('groups', 'getGroup', { id: group.id }, as)).body.group.logo).toBeNull();
    }, 30_000);

    it('pushes archived and unarchived to consoles watching the group or the business, and no one else', async () => {
      const { admin, as } = await supportSession(t);
      const group = (await t.call('groups', 'createGroup', { name: 'North' }, as)).body.group;
      const business = (await t.call('businesses', 'createBusiness', validBusiness(), as)).body.business;
      const hub = listen(t);
      try {
        const groupPage = consoleSocket(hub.url, admin.cookie);
        const businessPage = consoleSocket(hub.url, admin.cookie);
        const elsewhere = consoleSocket(hub.url, admin.cookie);
        await Promise.all([groupPage.opened, businessPage.opened, elsewhere.opened]);
        groupPage.ws.send(JSON.stringify({ action: 'subscribe', params: { groupId: group.id } }));
        businessPage.ws.send(JSON.stringify({ action: 'subscribe', params: { businessId: business.id } }));
        elsewhere.ws.send(JSON.stringify({ action: 'subscribe', params: { businessId: 'another' } }));
        await eventually(() => [groupPage, businessPage, elsewhere].every((c) => c.pushes.length === 1));

        await t.call('groups', 'archiveGroup', { id: group.id }, as);
        await t.call('businesses', 'archiveBusiness', { id: business.id }, as);
        await eventually(() => groupPage.pushes.length === 2 && businessPage.pushes.length === 2);
        expect(groupPage.pushes[1]).toEqual({
          action: 'archived',
          params: {
            groupId: group.id,
            archived: { at: t.deps.now(), userId: admin.userId, userDisplayName: 'Sam Support' },
          },
        });
        expect(businessPage.pushes[1]?.action).toBe('archived');
        expect(businessPage.pushes[1]?.params.businessId).toBe(business.id);

        await t.call('groups', 'unarchiveGroup', { id: group.id }, as);
        await t.call('businesses', 'unarchiveBusiness', { id: business.id }, as);
        await eventually(() => groupPage.pushes.length === 3 && businessPage.pushes.length === 3);
        expect(groupPage.pushes[2]).toEqual({ action: 'unarchived', params: { groupId: group.id, archived: null } });
        expect(businessPage.pushes[2]?.action).toBe('unarchived');
        expect(elsewhere.pushes.map((p) => p.action)).toEqual(['subscribed']);
        for (const c of [groupPage, businessPage, elsewhere]) c.ws.close();
      } finally {
        hub.stop();
      }
    }, 30_000);
  },
  undefined,
  testDataDir(),
);
