import { expect, it, setDefaultTimeout } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { createMemoryMailer, type MemoryMailer } from '../../mail/mailer.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';

// Sessions are made directly, but a few users are created per test: give a loaded machine room.
setDefaultTimeout(30_000);

/*
 * SPEC §1 "Pharmacy administrators manage their own business or group": the `roles` scope of
 * users.getUsersByRole, users.getUser, auth.addRoles and auth.removeRole for pharmacy users
 * (docs/decisions/auth.md, Pharmacy administrators and their users).
 */

const mailer: MemoryMailer = createMemoryMailer();

/** Business One in group North, business Two in no group; an admin, a member and others on them. */
async function estate(t: TestApi) {
  const north = Bun.randomUUIDv7();
  await t.db.insertInto('groups').values({ id: north, name: 'North', created: 1, updated: 1 }).execute();
  const one = Bun.randomUUIDv7();
  const two = Bun.randomUUIDv7();
  await t.db
    .insertInto('businesses')
    .values([
      { id: one, name: 'One Pharmacy', group_id: north, created: 1, updated: 1 },
      { id: two, name: 'Two Pharmacy', created: 1, updated: 1 },
    ])
    .execute();
  const onOne = (admin: boolean) => ({
    name: 'Business' as const,
    resourceType: 'business' as const,
    resourceId: one,
    accessLevels: admin ? ['Admin'] : [],
  });
  const admin = await t.signIn({ email: 'admin@one.test', roles: [onOne(true)] });
  const member = await t.signIn({ email: 'member@one.test', roles: [onOne(false)] });
  const groupAdmin = await t.signIn({
    email: 'admin@north.test',
    roles: [{ name: 'Group', resourceType: 'group', resourceId: north, accessLevels: ['Admin'] }],
  });
  const supporter = await t.createUser({ email: 'helper@medlocker.test', support: true, roles: [onOne(false)] });
  const outsider = await t.createUser({
    email: 'someone@two.test',
    roles: [{ name: 'Business', resourceType: 'business', resourceId: two, accessLevels: ['Admin'] }],
  });
  return { north, one, two, admin, member, groupAdmin, supporter, outsider };
}

const addInput = (resourceId: string, overrides: Record<string, unknown> = {}) => ({
  addIdpByDefault: false,
  email: 'new.colleague@one.test',
  frontEnd: 'pharmacy',
  resourceId,
  resourceType: 'business',
  roles: [{ name: 'Business', accessLevels: [] }],
  ...overrides,
});

/** Users and roles as rows: a refusal must leave both as they were. */
async function people(t: TestApi): Promise<string> {
  const users = await t.db.selectFrom('users').select(['id', 'email', 'identity_provider_id']).orderBy('id').execute();
  const roles = await t.db
    .selectFrom('user_roles')
    .select(['user_id', 'name', 'resource_id', 'access_levels'])
    .orderBy('id')
    .execute();
  return JSON.stringify({ users, roles });
}

describeApi(
  'pharmacy administrators and their users',
  (t) => {
    it("lists a business's users for its Admins and its other users, and nobody else's", async () => {
      const e = await estate(t);
      const list = (as: { cookie: string }, input: Record<string, unknown>) =>
        t.call('users', 'getUsersByRole', input, as);
      for (const who of [e.admin, e.member, e.groupAdmin]) {
        const answer = await list(who, { roleName: 'Business', roleResource: e.one });
        expect(answer.status).toBe(200);
        expect(answer.body.users.map((u) => u.email)).toEqual([
          'admin@one.test',
          'helper@medlocker.test',
          'member@one.test',
        ]);
      }
      const admins = await list(e.member, { roleName: 'Business', roleResource: e.one, filterText: 'admin' });
      expect(admins.body.users.map((u) => [u.email, u.accessLevels])).toEqual([['admin@one.test', ['Admin']]]);
      // The group's own users: for holders of a role on the group only.
      expect((await list(e.groupAdmin, { roleName: 'Group', roleResource: e.north })).status).toBe(200);
      expect((await list(e.admin, { roleName: 'Group', roleResource: e.north })).status).toBe(404);
      // Another business, an unknown id, every business at once: not found.
      expect((await list(e.admin, { roleName: 'Business', roleResource: e.two })).status).toBe(404);
      expect((await list(e.admin, { roleName: 'Business', roleResource: 'no-such-business' })).status).toBe(404);
      expect((await list(e.admin, { roleName: 'Business' })).status).toBe(404);
      // Support staff and developers are listed by support only.
      const support = await list(e.admin, { roleName: 'Support' });
      expect(support.status).toBe(403);
      expect(support.body.error.message).toBe('Only support staff manage Support roles');
      expect((await list(e.admin, { roleName: 'Developer' })).status).toBe(403);
    });

    it('lets an Admin invite a new user by email to their business, with or without Admin, and audits it', async () => {
      const e = await estate(t);
      mailer.messages.length = 0;
      const added = await t.call('auth', 'addRoles', addInput(e.one), { cookie: e.admin.cookie });
      expect(added.status).toBe(200);
      // New or not, the person is invited: they get the role by accepting it (invitations.test.ts).
      expect(added.body).toEqual({ outcome: 'invited' });
      await Bun.sleep(10);
      expect(mailer.messages.map((m) => m.to)).toEqual(['new.colleague@one.test']);

      const asAdmin = await t.call(
        'auth',
        'addRoles',
        addInput(e.one, { email: 'deputy@one.test', roles: [{ name: 'Business', accessLevels: ['Admin'] }] }),
        { cookie: e.admin.cookie },
      );
      expect(asAdmin.status).toBe(200);
      const pending = await t.call(
        'auth',
        'listInvitations',
        { roleName: 'Business', roleResource: e.one },
        { cookie: e.admin.cookie },
      );
      expect(pending.body.invitations.map((i) => [i.email, i.roleName, i.accessLevels])).toEqual([
        ['new.colleague@one.test', 'Business', []],
        ['deputy@one.test', 'Business', ['Admin']],
      ]);
      const user = await t.db
        .selectFrom('users')
        .select('id')
        .where('email_normalised', '=', 'new.colleague@one.test')
        .executeTakeFirstOrThrow();
      const audit = (await listAudit(t.db)).filter((r) => r.entityId === user.id);
      expect(audit.map((r) => [r.action, r.actorUserId])).toEqual([
        ['user.create', e.admin.userId],
        ['role.invite', e.admin.userId],
      ]);
      expect(audit[1]?.details).toMatchObject({ role: 'Business', resource: e.one, accessLevels: [] });
    });

    it('lets a group Admin add Group roles on the group and Business roles on its businesses', async () => {
      const e = await estate(t);
      const group = await t.call(
        'auth',
        'addRoles',
        addInput(e.north, { resourceType: 'group', roles: [{ name: 'Group', accessLevels: ['Admin'] }] }),
        { cookie: e.groupAdmin.cookie },
      );
      expect(group.status).toBe(200);
      const business = await t.call('auth', 'addRoles', addInput(e.one, { email: 'x@one.test' }), {
        cookie: e.groupAdmin.cookie,
      });
      expect(business.status).toBe(200);
      // Not the business outside the group; a business Admin gets nothing on the group.
      expect(
        (await t.call('auth', 'addRoles', addInput(e.two, { email: 'y@one.test' }), { cookie: e.groupAdmin.cookie }))
          .status,
      ).toBe(404);
      const onGroup = addInput(e.north, {
        email: 'z@one.test',
        resourceType: 'group',
        roles: [{ name: 'Group', accessLevels: [] }],
      });
      expect((await t.call('auth', 'addRoles', onGroup, { cookie: e.admin.cookie })).status).toBe(404);
    });

    it('refuses an Admin every role but Business and Group on what they administer, changing nothing', async () => {
      const e = await estate(t);
      const before = await people(t);
      const refused = async (input: Record<string, unknown>, as = e.admin) =>
        (await t.call('auth', 'addRoles', input, { cookie: as.cookie })).status;
      // Wrong level: support's roles and choices.
      const support = { addIdpByDefault: false, email: 'x@one.test', frontEnd: 'pharmacy' };
      expect(await refused({ ...support, roles: [{ name: 'Support', accessLevels: [] }] })).toBe(403);
      expect(await refused({ ...support, roles: [{ name: 'Developer', accessLevels: [] }] })).toBe(403);
      expect(
        await refused(
          addInput(e.one, {
            roles: [
              { name: 'Business', accessLevels: [] },
              { name: 'Support', accessLevels: [] },
            ],
          }),
        ),
      ).toBe(403);
      expect(await refused(addInput(e.one, { frontEnd: 'support' }))).toBe(403);
      expect(await refused(addInput(e.one, { addIdpByDefault: true }))).toBe(403);
      // Another business, by the request's resource or the role's own: not found.
      expect(await refused(addInput(e.two))).toBe(404);
      expect(await refused(addInput(e.one, { roles: [{ name: 'Business', resource: e.two, accessLevels: [] }] }))).toBe(
        404,
      );
      expect(await refused(addInput('no-such-business'))).toBe(404);
      // Not an Admin of the business: 403 (they know it exists).
      expect(await refused(addInput(e.one), e.member)).toBe(403);
      // No resource at all: SPEC §5's 'Field is required'.
      expect(await refused(addInput(e.one, { resourceId: null }))).toBe(400);
      expect(await people(t)).toBe(before);
    });

    it("lets an Admin remove a Business role on their business, never a support user's other roles", async () => {
      const e = await estate(t);
      const remove = (input: Record<string, unknown>, as = e.admin) =>
        t.call('auth', 'removeRole', input, { cookie: as.cookie });
      const before = await people(t);
      // Support's own role, another business's role, a non-Admin remover, their own role: refused.
      expect((await remove({ userId: e.supporter.userId, roleName: 'Support', roleResource: null })).status).toBe(403);
      expect((await remove({ userId: e.outsider.userId, roleName: 'Business', roleResource: e.two })).status).toBe(404);
      expect(
        (await remove({ userId: e.admin.userId, roleName: 'Business', roleResource: e.one }, e.member)).status,
      ).toBe(403);
      const own = await remove({ userId: e.admin.userId, roleName: 'Business', roleResource: e.one });
      expect(own.status).toBe(409);
      expect(own.body.error.message).toBe('You cannot remove your own role');
      expect(await people(t)).toBe(before);

      // The support user's role on this business is this business's to remove; the Support role stays.
      expect((await remove({ userId: e.supporter.userId, roleName: 'Business', roleResource: e.one })).status).toBe(
        200,
      );
      expect((await remove({ userId: e.member.userId, roleName: 'Business', roleResource: e.one })).status).toBe(200);
      const left = await t.db
        .selectFrom('user_roles')
        .select('name')
        .where('user_id', 'in', [e.supporter.userId, e.member.userId])
        .execute();
      expect(left.map((r) => r.name)).toEqual(['Support']);
      const audit = (await listAudit(t.db)).filter((r) => r.action === 'role.remove');
      expect(audit.map((r) => [r.entityId, r.actorUserId])).toEqual([
        [e.supporter.userId, e.admin.userId],
        [e.member.userId, e.admin.userId],
      ]);
      // The removed member now reaches nothing of the business.
      const after = await t.call(
        'users',
        'getUsersByRole',
        { roleName: 'Business', roleResource: e.one },
        {
          cookie: e.member.cookie,
        },
      );
      expect(after.status).toBe(404);
    });

    it('shows an Admin the users of their business with only the roles there; others are 403 or 404', async () => {
      const e = await estate(t);
      const seen = await t.call('users', 'getUser', { id: e.supporter.userId }, { cookie: e.admin.cookie });
      expect(seen.status).toBe(200);
      expect(seen.body.roles.map((r) => [r.name, r.resourceName])).toEqual([['Business', 'One Pharmacy']]);
      expect(seen.body.user.accessLevels).toEqual([]);
      // A group Admin reaches the business's users through the group.
      expect((await t.call('users', 'getUser', { id: e.member.userId }, { cookie: e.groupAdmin.cookie })).status).toBe(
        200,
      );
      // Another business's user, or nobody at all: not found; a colleague for a non-Admin: 403.
      expect((await t.call('users', 'getUser', { id: e.outsider.userId }, { cookie: e.admin.cookie })).status).toBe(
        404,
      );
      expect((await t.call('users', 'getUser', { id: 'no-such-user' }, { cookie: e.admin.cookie })).status).toBe(404);
      expect((await t.call('users', 'getUser', { id: e.admin.userId }, { cookie: e.member.cookie })).status).toBe(403);
      // Everybody still sees themselves whole.
      const self = await t.call('users', 'getUser', { id: e.member.userId }, { cookie: e.member.cookie });
      expect(self.body.roles).toHaveLength(1);
      // Identity providers stay support's.
      const idp = await t.call(
        'auth',
        'editIdentityProvider',
        { email: 'member@one.test', identityProviderId: null, frontEnd: 'pharmacy' },
        { cookie: e.admin.cookie },
      );
      expect(idp.status).toBe(403);
    });
  },
  () => ({ mailer }),
);
