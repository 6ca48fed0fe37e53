import { expect, it, setDefaultTimeout } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { createMemoryMailer, type MemoryMailer } from '../../mail/mailer.ts';
import { describeApi, type TestApi } from '../../testing/api.ts';

// Each login hashes with argon2id, which is slow on purpose; a loaded machine needs more than 5 s a test.
setDefaultTimeout(30_000);

const business = async (t: TestApi, name: string) => {
  const id = Bun.randomUUIDv7();
  await t.db.insertInto('businesses').values({ id, name, created: 1, updated: 1 }).execute();
  return id;
};
const group = async (t: TestApi, name: string) => {
  const id = Bun.randomUUIDv7();
  await t.db.insertInto('groups').values({ id, name, created: 1, updated: 1 }).execute();
  return id;
};

const mailer: MemoryMailer = createMemoryMailer();

/** Support's Add role attaches at once: its answer names the user. */
const added = (body: unknown) => body as { outcome: 'added'; userId: string; created: boolean };

describeApi(
  'roles',
  (t) => {
    it('creates a new user with a Support role, no password, and an invitation to set one', async () => {
      mailer.messages.length = 0;
      const admin = await t.signIn({ support: true });
      const res = await t.call(
        'auth',
        'addRoles',
        {
          addIdpByDefault: false,
          email: 'New.Person@Pharmacy.test',
          frontEnd: 'support',
          roles: [{ name: 'Support', description: 'Access to support portal', accessLevels: [] }],
        },
        { cookie: admin.cookie },
      );
      expect(res.status).toBe(200);
      expect(added(res.body).created).toBe(true);
      const user = await t.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', added(res.body).userId)
        .executeTakeFirstOrThrow();
      expect(user).toMatchObject({
        email_normalised: 'new.person@pharmacy.test',
        password_hash: null,
        force_reset: true,
        front_end: 'support',
      });
      await Bun.sleep(10);
      expect(mailer.messages.map((m) => m.to)).toEqual(['New.Person@Pharmacy.test']);
      expect(mailer.messages[0]?.text).toContain('/auth/reset#token=');

      const details = await t.call('users', 'getUser', { id: added(res.body).userId }, { cookie: admin.cookie });
      expect(details.body.roles).toEqual([
        {
          name: 'Support',
          resource: null,
          resourceType: null,
          resourceName: null,
          accessLevels: [],
          description: 'Access to support portal',
        },
      ]);
    });

    it('adds Business and Group roles on existing resources with the SPEC descriptions', async () => {
      const admin = await t.signIn({ support: true });
      const boots = await business(t, 'Boots Leeds');
      const north = await group(t, 'North');
      const first = await t.call(
        'auth',
        'addRoles',
        {
          addIdpByDefault: false,
          email: 'pharmacist@pharmacy.test',
          frontEnd: 'pharmacy',
          resourceId: boots,
          resourceType: 'business',
          roles: [{ name: 'Business', description: '', accessLevels: ['Admin'] }],
        },
        { cookie: admin.cookie },
      );
      expect(first.status).toBe(200);
      const second = await t.call(
        'auth',
        'addRoles',
        {
          addIdpByDefault: false,
          email: 'PHARMACIST@pharmacy.test',
          frontEnd: 'pharmacy',
          roles: [{ name: 'Group', description: '', resource: north, accessLevels: [] }],
        },
        { cookie: admin.cookie },
      );
      expect<unknown>(second.body).toEqual({ outcome: 'added', userId: added(first.body).userId, created: false });
      const details = await t.call('users', 'getUser', { id: added(first.body).userId }, { cookie: admin.cookie });
      expect(details.body.roles).toEqual([
        {
          name: 'Business',
          resource: boots,
          resourceType: 'business',
          resourceName: 'Boots Leeds',
          accessLevels: ['Admin'],
          description: 'Administrator access to Business - Boots Leeds',
        },
        {
          name: 'Group',
          resource: north,
          resourceType: 'group',
          resourceName: 'North',
          accessLevels: [],
          description: 'Access to Group - North',
        },
      ]);
      expect(details.body.user.accessLevels).toEqual(['Admin']);
    });

    it('refuses a Business or Group role without a resource, or on one that does not exist', async () => {
      const admin = await t.signIn({ support: true });
      const add = (roles: unknown[], extra: Record<string, unknown> = {}) =>
        t.call(
          'auth',
          'addRoles',
          { addIdpByDefault: false, email: 'x@pharmacy.test', frontEnd: 'pharmacy', roles, ...extra },
          { cookie: admin.cookie },
        );
      const missing = await add([{ name: 'Business', description: '', accessLevels: [] }]);
      expect(missing.status).toBe(400);
      expect(missing.body.error.details).toEqual([
        { path: 'roles.0.resource', id: 'FIELD_REQUIRED', message: 'Field is required' },
      ]);
      const unknown = await add([{ name: 'Group', description: '', resource: 'no-such-group', accessLevels: [] }]);
      expect(unknown.status).toBe(400);
      const wrongKind = await add([{ name: 'Group', description: '', accessLevels: [] }], {
        resourceId: await business(t, 'Not a group'),
        resourceType: 'business',
      });
      expect(wrongKind.status).toBe(400);
      expect(
        await t.db.selectFrom('users').select('id').where('email_normalised', '=', 'x@pharmacy.test').execute(),
      ).toHaveLength(0);
    });

    it('refuses a resource or access level on a Support or Developer role', async () => {
      const admin = await t.signIn({ support: true });
      const res = await t.call(
        'auth',
        'addRoles',
        {
          addIdpByDefault: false,
          email: 'dev@pharmacy.test',
          frontEnd: 'support',
          roles: [{ name: 'Developer', description: '', resource: await business(t, 'B'), accessLevels: ['Admin'] }],
        },
        { cookie: admin.cookie },
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details?.map((d: { path: string }) => d.path)).toEqual([
        'roles.0.resource',
        'roles.0.accessLevels',
      ]);
    });

    it('removes a role, and refuses to remove one the user does not hold', async () => {
      const admin = await t.signIn({ support: true });
      const boots = await business(t, 'Boots');
      const user = await t.createUser({
        roles: [{ name: 'Business', resourceType: 'business', resourceId: boots }, { name: 'Developer' }],
      });
      const removed = await t.call(
        'auth',
        'removeRole',
        { userId: user.userId, roleName: 'Business', roleResource: boots },
        { cookie: admin.cookie },
      );
      expect<unknown>(removed.body).toEqual({ ok: true });
      const again = await t.call(
        'auth',
        'removeRole',
        { userId: user.userId, roleName: 'Business', roleResource: boots },
        { cookie: admin.cookie },
      );
      expect(again.status).toBe(404);
      const details = await t.call('users', 'getUser', { id: user.userId }, { cookie: admin.cookie });
      expect(details.body.roles.map((r) => r.name)).toEqual(['Developer']);
    });

    it('does not let support staff remove their own Support role', async () => {
      const admin = await t.signIn({ support: true });
      const res = await t.call(
        'auth',
        'removeRole',
        { userId: admin.userId, roleName: 'Support', roleResource: null },
        { cookie: admin.cookie },
      );
      expect(res.status).toBe(409);
    });

    it('is for support staff only', async () => {
      const pharmacist = await t.signIn({ roles: [{ name: 'Developer' }] });
      const res = await t.call(
        'auth',
        'addRoles',
        {
          addIdpByDefault: false,
          email: 'me@pharmacy.test',
          frontEnd: 'support',
          roles: [{ name: 'Support', description: '', accessLevels: [] }],
        },
        { cookie: pharmacist.cookie },
      );
      expect(res.status).toBe(403);
      expect((await t.call('auth', 'addRoles', {}, {})).status).toBe(401);
    });

    it('sets and clears a user identity provider, and the login page then offers single sign-on', async () => {
      const admin = await t.signIn({ support: true });
      const user = await t.createUser({ email: 'sso@pharmacy.test' });
      await t.db
        .insertInto('identity_providers')
        .values({
          id: 'idp-1',
          name: 'Pharmacy SSO',
          type: 'OIDC',
          configuration: JSON.stringify({
            clientId: 'client-1',
            clientSecret: 'hush',
            issuerUrl: 'https://sso.example/realms/p',
          }),
          created: 1,
          updated: 1,
        })
        .execute();
      const set = await t.call(
        'auth',
        'editIdentityProvider',
        { email: 'SSO@pharmacy.test', identityProviderId: 'idp-1', frontEnd: 'pharmacy' },
        { cookie: admin.cookie },
      );
      expect(set.status).toBe(200);
      // The provider (sso.example) cannot be reached: the login page is told so in words (sso/oidc.test.ts
      // runs the real round trip against a real provider).
      const url = await t.call('auth', 'getIdentityProviderAuthUrl', {
        username: 'sso@pharmacy.test',
        returnUrl: 'https://evil.example/',
      });
      expect(url.status).toBe(503);
      expect(url.body.error.message).toContain('Your identity provider could not be reached');
      const details = await t.call('users', 'getUser', { id: user.userId }, { cookie: admin.cookie });
      expect(details.body.identityProvider).toEqual({ id: 'idp-1', name: 'Pharmacy SSO' });

      await t.call(
        'auth',
        'editIdentityProvider',
        { email: 'sso@pharmacy.test', identityProviderId: null, frontEnd: 'pharmacy' },
        { cookie: admin.cookie },
      );
      expect(
        (await t.call('auth', 'getIdentityProviderAuthUrl', { username: 'sso@pharmacy.test', returnUrl: '/' })).body
          .authUrl,
      ).toBeNull();
      expect(
        (await t.call('auth', 'getIdentityProviderAuthUrl', { username: 'nobody@pharmacy.test', returnUrl: '/' })).body
          .authUrl,
      ).toBeNull();
    });

    it("gives a business's or group's identity provider only to users of that business or group", async () => {
      const admin = await t.signIn({ support: true });
      const a = await business(t, 'Alpha Pharmacy');
      const b = await business(t, 'Beta Pharmacy');
      const g = await group(t, 'Gamma Group');
      const inG = await business(t, 'Gamma Chemists');
      await t.db.updateTable('businesses').set({ group_id: g }).where('id', '=', inG).execute();
      const provider = async (id: string, scope: { business_id?: string; group_id?: string }, created: number) =>
        t.db
          .insertInto('identity_providers')
          .values({
            id,
            name: id,
            type: 'OIDC',
            configuration: JSON.stringify({ clientId: 'c', issuerUrl: 'https://sso.example' }),
            created,
            updated: created,
            ...scope,
          })
          .execute();
      await provider('idp-alpha', { business_id: a }, 1);
      await provider('idp-gamma', { group_id: g }, 2);
      const withRole = (email: string, roles: { name: 'Business' | 'Support'; resource?: string }[]) =>
        t.createUser({
          email,
          roles: roles.map((r) =>
            r.resource ? { name: r.name, resourceType: 'business', resourceId: r.resource } : r,
          ),
        });
      const edit = (email: string, identityProviderId: string) =>
        t.call(
          'auth',
          'editIdentityProvider',
          { email, identityProviderId, frontEnd: 'pharmacy' },
          { cookie: admin.cookie },
        );
      const providerOf = async (email: string) =>
        (await t.db.selectFrom('users').select('identity_provider_id').where('email', '=', email).executeTakeFirst())
          ?.identity_provider_id;

      await withRole('beta@pharmacy.test', [{ name: 'Business', resource: b }]);
      const refused = await edit('beta@pharmacy.test', 'idp-alpha');
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'VALIDATION',
        message:
          'The identity provider idp-alpha is for the business Alpha Pharmacy only, and this user has roles outside it',
      });
      expect(await providerOf('beta@pharmacy.test')).toBeNull();
      expect((await edit('beta@pharmacy.test', 'idp-gamma')).status).toBe(400);
      await withRole('support@pharmacy.test', [{ name: 'Support' }]);
      expect((await edit('support@pharmacy.test', 'idp-gamma')).body.error.message).toBe(
        'The identity provider idp-gamma is for the group Gamma Group only, and this user has roles outside it',
      );
      await withRole('nobody@pharmacy.test', []);
      expect((await edit('nobody@pharmacy.test', 'idp-alpha')).body.error.message).toBe(
        'The identity provider idp-alpha is for the business Alpha Pharmacy only, and this user has no role there',
      );
      await withRole('alpha@pharmacy.test', [{ name: 'Business', resource: a }]);
      expect((await edit('alpha@pharmacy.test', 'idp-alpha')).status).toBe(200);
      expect(await providerOf('alpha@pharmacy.test')).toBe('idp-alpha');
      // A group's provider serves the group's businesses too.
      await withRole('gamma@pharmacy.test', [{ name: 'Business', resource: inG }]);
      expect((await edit('gamma@pharmacy.test', 'idp-gamma')).status).toBe(200);

      // "Single sign-on by default" picks a provider that serves the new user's roles, or refuses.
      const add = (email: string, resource: string) =>
        t.call(
          'auth',
          'addRoles',
          {
            addIdpByDefault: true,
            email,
            frontEnd: 'pharmacy',
            roles: [{ name: 'Business', resource, description: '', accessLevels: [] }],
          },
          { cookie: admin.cookie },
        );
      const none = await add('new.beta@pharmacy.test', b);
      expect(none.status).toBe(400);
      expect(none.body.error.message).toBe(
        "No identity provider serves this user's roles: add a global one or one for their business or group",
      );
      expect(await providerOf('new.beta@pharmacy.test')).toBeUndefined();
      expect((await add('new.gamma@pharmacy.test', inG)).status).toBe(200);
      expect(await providerOf('new.gamma@pharmacy.test')).toBe('idp-gamma');
      await provider('idp-global', {}, 3);
      expect((await add('new.beta@pharmacy.test', b)).status).toBe(200);
      expect(await providerOf('new.beta@pharmacy.test')).toBe('idp-global');
      expect((await add('new.alpha@pharmacy.test', a)).status).toBe(200);
      expect(await providerOf('new.alpha@pharmacy.test')).toBe('idp-alpha');
    });

    it('audits each role change with who made it and from which request', async () => {
      const admin = await t.signIn({ support: true, givenName: 'Ada', familyName: 'Admin' });
      const res = await t.call(
        'auth',
        'addRoles',
        {
          addIdpByDefault: false,
          email: 'audited@pharmacy.test',
          frontEnd: 'support',
          roles: [{ name: 'Support', description: '', accessLevels: [] }],
        },
        { cookie: admin.cookie, headers: { 'x-request-id': 'req-roles-0001' } },
      );
      await t.call(
        'auth',
        'removeRole',
        { userId: added(res.body).userId, roleName: 'Support', roleResource: null },
        { cookie: admin.cookie },
      );
      const rows = (await listAudit(t.db)).filter((r) => r.entityId === added(res.body).userId);
      expect(rows.map((r) => r.action)).toEqual(['user.create', 'role.add', 'role.remove']);
      expect(rows[1]).toMatchObject({
        actorUserId: admin.userId,
        actorDisplay: 'Ada Admin',
        requestId: 'req-roles-0001',
      });
      expect(rows[1]?.details).toMatchObject({ role: 'Support', resource: null });
    });
  },
  () => ({ mailer }),
);
