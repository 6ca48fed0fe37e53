import { expect, it, setDefaultTimeout } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { createMemoryMailer, type MemoryMailer } from '../../mail/mailer.ts';
import { authPolicy } from '../../sessions/policy.ts';
import { createSession } from '../../sessions/sessions.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';

// A few users and sessions per test: give a loaded machine room.
setDefaultTimeout(30_000);

/*
 * Issue 35 §1: a pharmacy Admin adding a person outside their reach invites them (the person accepts),
 * never attaches a role to another pharmacy's or to support's user; new and existing emails get the same
 * answer; every role is seen and removed by its own business's Admins (docs/decisions/auth.md, Role
 * invitations).
 */

const mailer: MemoryMailer = createMemoryMailer();

/** Business One (group North) with its Admin and a member; business Two with its own Admin and user. */
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
  const on = (resourceId: string, admin: boolean) => ({
    name: 'Business' as const,
    resourceType: 'business' as const,
    resourceId,
    accessLevels: admin ? ['Admin'] : [],
  });
  // Two signs in through its own identity provider: every role of its users must be on Two.
  await t.db
    .insertInto('identity_providers')
    .values({
      id: 'idp-two',
      name: 'Two SSO',
      type: 'OIDC',
      configuration: JSON.stringify({ clientId: 'c', issuerUrl: 'https://sso.example' }),
      created: 1,
      updated: 1,
      business_id: two,
    })
    .execute();
  const admin = await t.signIn({ email: 'admin@one.test', roles: [on(one, true)] });
  const member = await t.signIn({ email: 'member@one.test', roles: [on(one, false)] });
  const twoAdmin = await t.signIn({ email: 'admin@two.test', roles: [on(two, true)] });
  const twoUser = await t.signIn({ email: 'pharmacist@two.test', roles: [on(two, false)] });
  await t.db.updateTable('users').set({ identity_provider_id: 'idp-two' }).where('id', '=', twoUser.userId).execute();
  const supporter = await t.signIn({
    email: 'helper@medlocker.test',
    givenName: 'Secret',
    familyName: 'Supporter',
    support: true,
  });
  return { north, one, two, admin, member, twoAdmin, twoUser, supporter };
}

const invite = (resourceId: string, email: string, accessLevels: string[] = []) => ({
  addIdpByDefault: false,
  email,
  frontEnd: 'pharmacy',
  resourceId,
  resourceType: 'business',
  roles: [{ name: 'Business', accessLevels }],
});

/** A user's roles as [name, resource] rows. */
async function rolesOf(t: TestApi, userId: string) {
  const rows = await t.db
    .selectFrom('user_roles')
    .select(['name', 'resource_id'])
    .where('user_id', '=', userId)
    .orderBy('name')
    .orderBy('resource_id')
    .execute();
  return rows.map((r) => [r.name, r.resource_id]);
}

/** A session of an existing user, as after signing in. */
async function sessionOf(t: TestApi, userId: string) {
  const { token } = await createSession(t.db, userId, t.deps.now(), { ip: null, userAgent: 'test' });
  return { cookie: `${authPolicy.sessionCookie}=${token}` };
}

describeApi(
  'role invitations',
  (t) => {
    it("answers a new and another business's email alike, and attaches nothing outside the Admin's reach", async () => {
      const e = await estate(t);
      const before = await rolesOf(t, e.twoUser.userId);
      const existing = await t.call('auth', 'addRoles', invite(e.one, 'pharmacist@two.test'), {
        cookie: e.admin.cookie,
      });
      const fresh = await t.call('auth', 'addRoles', invite(e.one, 'someone.new@one.test'), { cookie: e.admin.cookie });
      expect([existing.status, fresh.status]).toEqual([200, 200]);
      expect(existing.body).toEqual({ outcome: 'invited' });
      expect(fresh.body).toEqual({ outcome: 'invited' });
      // Two's user keeps exactly their roles, so they still sign in through Two's provider.
      expect(await rolesOf(t, e.twoUser.userId)).toEqual(before);
      // The new email has an account (to set a password with) but no role until they accept.
      const created = await t.db
        .selectFrom('users')
        .select('id')
        .where('email_normalised', '=', 'someone.new@one.test')
        .executeTakeFirstOrThrow();
      expect(await rolesOf(t, created.id)).toEqual([]);
      // One's Admin reaches neither of them.
      for (const id of [e.twoUser.userId, created.id]) {
        expect((await t.call('users', 'getUser', { id }, { cookie: e.admin.cookie })).status).toBe(404);
      }
    });

    it("never gives a support user a pharmacy's role, nor shows that pharmacy their name", async () => {
      const e = await estate(t);
      const answer = await t.call('auth', 'addRoles', invite(e.one, 'helper@medlocker.test'), {
        cookie: e.admin.cookie,
      });
      expect(answer.body).toEqual({ outcome: 'invited' });
      expect(await rolesOf(t, e.supporter.userId)).toEqual([['Support', null]]);
      const seen = await t.call('users', 'getUser', { id: e.supporter.userId }, { cookie: e.admin.cookie });
      expect(seen.status).toBe(404);
      expect(JSON.stringify(seen.body)).not.toContain('Secret');
      const listed = await t.call(
        'users',
        'getUsersByRole',
        { roleName: 'Business', roleResource: e.one },
        { cookie: e.admin.cookie },
      );
      expect(JSON.stringify(listed.body)).not.toContain('helper@medlocker.test');
      // The support user sees the invitation, but accepting it is refused and changes nothing.
      const mine = await t.call('auth', 'listMyInvitations', {}, { cookie: e.supporter.cookie });
      expect(mine.body.invitations.map((i) => i.resourceName)).toEqual(['One Pharmacy']);
      const accept = await t.call(
        'auth',
        'acceptInvitation',
        { id: mine.body.invitations[0]?.id },
        { cookie: e.supporter.cookie },
      );
      expect(accept.status).toBe(409);
      expect(accept.body.error.message).toBe(
        'Support staff and developers are given roles by support staff only: this invitation cannot be accepted',
      );
      expect(await rolesOf(t, e.supporter.userId)).toEqual([['Support', null]]);
    });

    it("refuses at Accept a role that would break the user's identity provider, changing nothing", async () => {
      const e = await estate(t);
      await t.call('auth', 'addRoles', invite(e.one, 'pharmacist@two.test'), { cookie: e.admin.cookie });
      const mine = await t.call('auth', 'listMyInvitations', {}, { cookie: e.twoUser.cookie });
      expect(mine.status).toBe(200);
      expect(mine.body.invitations).toHaveLength(1);
      const accept = await t.call(
        'auth',
        'acceptInvitation',
        { id: mine.body.invitations[0]?.id },
        { cookie: e.twoUser.cookie },
      );
      expect(accept.status).toBe(409);
      expect(accept.body.error.message).toBe(
        'The identity provider Two SSO is for the business Two Pharmacy only, and this user has roles outside it',
      );
      expect(await rolesOf(t, e.twoUser.userId)).toEqual([['Business', e.two]]);
    });

    it('lets a new invitee sign in with no role, accept, and become a user of the business, audited', async () => {
      const e = await estate(t);
      mailer.messages.length = 0;
      await t.call('auth', 'addRoles', invite(e.one, 'new.colleague@one.test', ['Admin']), { cookie: e.admin.cookie });
      await Bun.sleep(10);
      expect(mailer.messages.map((m) => m.to)).toEqual(['new.colleague@one.test']);
      const user = await t.db
        .selectFrom('users')
        .select('id')
        .where('email_normalised', '=', 'new.colleague@one.test')
        .executeTakeFirstOrThrow();
      // Signed in with no role yet: the session answers, with no scope.
      const as = await sessionOf(t, user.id);
      expect((await t.call('auth', 'session', {}, as)).body.scopes).toEqual([]);
      const mine = await t.call('auth', 'listMyInvitations', {}, as);
      expect(mine.body.invitations).toMatchObject([
        {
          roleName: 'Business',
          resourceType: 'business',
          resourceId: e.one,
          resourceName: 'One Pharmacy',
          accessLevels: ['Admin'],
          invitedBy: 'Test User',
        },
      ]);
      const id = mine.body.invitations[0]?.id;
      // Nobody else accepts or declines it.
      expect((await t.call('auth', 'acceptInvitation', { id }, { cookie: e.member.cookie })).status).toBe(404);
      expect((await t.call('auth', 'declineInvitation', { id }, { cookie: e.member.cookie })).status).toBe(404);
      const accepted = await t.call('auth', 'acceptInvitation', { id }, as);
      expect(accepted.status).toBe(200);
      expect(await rolesOf(t, user.id)).toEqual([['Business', e.one]]);
      expect((await t.call('auth', 'session', {}, as)).body.scopes).toEqual(['pharmacy']);
      expect((await t.call('auth', 'listMyInvitations', {}, as)).body.invitations).toEqual([]);
      const audit = (await listAudit(t.db)).filter((r) => r.entityId === user.id && r.action === 'role.add');
      expect(audit.map((r) => [r.actorUserId, r.details])).toEqual([
        [
          user.id,
          {
            role: 'Business',
            resourceType: 'business',
            resource: e.one,
            accessLevels: ['Admin'],
            invitationId: id,
            invitedBy: e.admin.userId,
          },
        ],
      ]);
      // Used once.
      expect((await t.call('auth', 'acceptInvitation', { id }, as)).status).toBe(404);
    });

    it('lets the invitee decline, and refuses an expired invitation', async () => {
      const e = await estate(t);
      await t.call('auth', 'addRoles', invite(e.one, 'pharmacist@two.test'), { cookie: e.admin.cookie });
      await t.call('auth', 'addRoles', invite(e.one, 'late@one.test'), { cookie: e.admin.cookie });
      const first = await t.call('auth', 'listMyInvitations', {}, { cookie: e.twoUser.cookie });
      const declined = await t.call(
        'auth',
        'declineInvitation',
        { id: first.body.invitations[0]?.id },
        { cookie: e.twoUser.cookie },
      );
      expect(declined.status).toBe(200);
      expect((await t.call('auth', 'listMyInvitations', {}, { cookie: e.twoUser.cookie })).body.invitations).toEqual(
        [],
      );

      const late = await t.db
        .selectFrom('users')
        .select('id')
        .where('email_normalised', '=', 'late@one.test')
        .executeTakeFirstOrThrow();
      const [pending] = (await t.call('auth', 'listMyInvitations', {}, await sessionOf(t, late.id))).body.invitations;
      t.advance(15 * 24 * 60 * 60 * 1000);
      // Signed in again after the invitation's 14 days.
      const as = await sessionOf(t, late.id);
      expect((await t.call('auth', 'listMyInvitations', {}, as)).body.invitations).toEqual([]);
      const expired = await t.call('auth', 'acceptInvitation', { id: pending?.id }, as);
      expect(expired.status).toBe(409);
      expect(expired.body.error.message).toBe('This invitation has expired: ask for a new one');
      expect(await rolesOf(t, late.id)).toEqual([]);
    });

    it("shows a business's Admins its pending invitations and lets them cancel; nobody else", async () => {
      const e = await estate(t);
      await t.call('auth', 'addRoles', invite(e.one, 'pharmacist@two.test'), { cookie: e.admin.cookie });
      const list = (as: { cookie: string }, roleResource = e.one) =>
        t.call('auth', 'listInvitations', { roleName: 'Business', roleResource }, as);
      const pending = await list(e.admin);
      expect(pending.status).toBe(200);
      expect(pending.body.invitations).toMatchObject([
        { email: 'pharmacist@two.test', roleName: 'Business', accessLevels: [], invitedBy: 'Test User' },
      ]);
      // No user id, no name: an invitation says nothing of the person behind the email.
      expect(JSON.stringify(pending.body)).not.toContain(e.twoUser.userId);
      expect((await list(e.member)).status).toBe(403);
      expect((await list(e.twoAdmin)).status).toBe(404);
      const id = pending.body.invitations[0]?.id;
      expect((await t.call('auth', 'cancelInvitation', { id }, { cookie: e.twoAdmin.cookie })).status).toBe(404);
      expect((await t.call('auth', 'cancelInvitation', { id }, { cookie: e.member.cookie })).status).toBe(403);
      expect((await t.call('auth', 'cancelInvitation', { id }, { cookie: e.admin.cookie })).status).toBe(200);
      expect((await list(e.admin)).body.invitations).toEqual([]);
      expect((await t.call('auth', 'listMyInvitations', {}, { cookie: e.twoUser.cookie })).body.invitations).toEqual(
        [],
      );
    });

    it('adds a colleague already in reach at once, and keeps that colleague out of support roles', async () => {
      const e = await estate(t);
      const groupAdmin = await t.signIn({
        email: 'admin@north.test',
        roles: [{ name: 'Group', resourceType: 'group', resourceId: e.north, accessLevels: ['Admin'] }],
      });
      const added = await t.call(
        'auth',
        'addRoles',
        { ...invite(e.north, 'member@one.test'), resourceType: 'group', roles: [{ name: 'Group', accessLevels: [] }] },
        { cookie: groupAdmin.cookie },
      );
      expect(added.body).toEqual({ outcome: 'added', userId: e.member.userId, created: false });
      expect(await rolesOf(t, e.member.userId)).toEqual([
        ['Business', e.one],
        ['Group', e.north],
      ]);
    });

    it("refuses support a role that would break an existing user's identity provider, changing nothing", async () => {
      const e = await estate(t);
      const added = await t.call('auth', 'addRoles', invite(e.one, 'pharmacist@two.test'), {
        cookie: e.supporter.cookie,
      });
      expect(added.status).toBe(400);
      expect(added.body.error.message).toBe(
        'The identity provider Two SSO is for the business Two Pharmacy only, and this user has roles outside it',
      );
      expect(await rolesOf(t, e.twoUser.userId)).toEqual([['Business', e.two]]);
    });

    it("shows and lets each business's Admin remove that business's roles of a user of both", async () => {
      const e = await estate(t);
      const locum = await t.createUser({
        email: 'locum@both.test',
        roles: [
          { name: 'Business', resourceType: 'business', resourceId: e.one, accessLevels: [] },
          { name: 'Business', resourceType: 'business', resourceId: e.two, accessLevels: [] },
        ],
      });
      for (const [admin, own] of [
        [e.admin, e.one],
        [e.twoAdmin, e.two],
      ] as const) {
        const seen = await t.call('users', 'getUser', { id: locum.userId }, { cookie: admin.cookie });
        expect(seen.body.roles.map((r) => r.resource)).toEqual([own]);
      }
      const remove = (as: { cookie: string }, roleResource: string) =>
        t.call('auth', 'removeRole', { userId: locum.userId, roleName: 'Business', roleResource }, as);
      expect((await remove(e.admin, e.two)).status).toBe(404);
      expect((await remove(e.admin, e.one)).status).toBe(200);
      expect((await remove(e.twoAdmin, e.two)).status).toBe(200);
      expect(await rolesOf(t, locum.userId)).toEqual([]);
    });
  },
  () => ({ mailer }),
);
