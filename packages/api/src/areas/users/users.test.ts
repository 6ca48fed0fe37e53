import { expect, it, setDefaultTimeout } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { describeApi } from '../../testing/api.ts';

// Each login hashes with argon2id, which is slow on purpose; a loaded machine needs more than 5 s a test.
setDefaultTimeout(30_000);

describeApi('users', (t) => {
  it('lists support users filtered by text anywhere in the email or full name, in any case', async () => {
    const admin = await t.signIn({
      support: true,
      email: 'admin@medlocker.test',
      givenName: 'Ada',
      familyName: 'Admin',
    });
    await t.createUser({ support: true, email: 'mary.jones@pharmacy.test', givenName: 'Mary', familyName: 'Jones' });
    await t.createUser({ support: true, email: 'jo@pharmacy.test', givenName: 'Jo', familyName: 'Marsh' });
    await t.createUser({ support: true, email: 'z@pharmacy.test', givenName: 'Zed', familyName: 'Oak' });
    await t.createUser({ email: 'mark@pharmacy.test', givenName: 'Mark', familyName: 'NotSupport' });
    const names = async (filterText: string) =>
      (
        await t.call('users', 'getUsersByRole', { roleName: 'Support', filterText }, { cookie: admin.cookie })
      ).body.users.map((u) => u.email);
    expect(await names('MAR')).toEqual(['jo@pharmacy.test', 'mary.jones@pharmacy.test']);
    expect(await names('mary j')).toEqual(['mary.jones@pharmacy.test']);
    expect(await names('jones')).toEqual(['mary.jones@pharmacy.test']);
    expect(await names('z@')).toEqual(['z@pharmacy.test']);
    expect(await names('ARY')).toEqual(['mary.jones@pharmacy.test']);
    expect(await names('y jon')).toEqual(['mary.jones@pharmacy.test']);
    expect(await names('_')).toEqual([]);
    expect(await names('%')).toEqual([]);
    expect(await names('')).toHaveLength(4);
  });

  it('lists the users of one business with their access levels there', async () => {
    const admin = await t.signIn({ support: true });
    await t.createUser({
      email: 'a@p.test',
      roles: [{ name: 'Business', resourceType: 'business', resourceId: 'b1', accessLevels: ['Admin'] }],
    });
    await t.createUser({
      email: 'b@p.test',
      roles: [{ name: 'Business', resourceType: 'business', resourceId: 'b2' }],
    });
    const res = await t.call(
      'users',
      'getUsersByRole',
      { roleName: 'Business', roleResource: 'b1' },
      { cookie: admin.cookie },
    );
    expect(res.body.users.map((u) => [u.email, u.accessLevels])).toEqual([['a@p.test', ['Admin']]]);
    expect(res.body.nextToken).toBeNull();
  });

  it('pages 25 at a time with no repeats or skips while users are added', async () => {
    const admin = await t.signIn({ support: true, email: 'aaa-admin@p.test' });
    for (let i = 0; i < 59; i++)
      await t.createUser({ support: true, email: `user${String(i).padStart(3, '0')}@p.test` });
    const before = new Set([
      admin.email,
      ...Array.from({ length: 59 }, (_, i) => `user${String(i).padStart(3, '0')}@p.test`),
    ]);
    const seen: string[] = [];
    let nextToken: string | null = null;
    let pages = 0;
    do {
      const res: Awaited<ReturnType<typeof t.call<'users', 'getUsersByRole'>>> = await t.call(
        'users',
        'getUsersByRole',
        { roleName: 'Support', nextToken },
        { cookie: admin.cookie },
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.users.map((u) => u.email));
      nextToken = res.body.nextToken;
      pages++;
      // Rows arrive between pages, before and after the cursor.
      await t.createUser({ support: true, email: `aa-early${pages}@p.test` });
      await t.createUser({ support: true, email: `zz-late${pages}@p.test` });
    } while (nextToken);
    expect(new Set(seen).size).toBe(seen.length);
    for (const email of before) expect(seen).toContain(email);
    expect(seen).toEqual([...seen].sort());
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('refuses a forged page token with 400', async () => {
    const admin = await t.signIn({ support: true });
    const res = await t.call(
      'users',
      'getUsersByRole',
      { roleName: 'Support', nextToken: 'bm90IGpzb24' },
      { cookie: admin.cookie },
    );
    expect(res.status).toBe(400);
  });

  it('shows a user to support staff and to themselves, and someone of no business the caller reaches as not found', async () => {
    const admin = await t.signIn({ support: true });
    const me = await t.signIn({ givenName: 'Me', familyName: 'Myself' });
    const other = await t.createUser();
    expect((await t.call('users', 'getUser', { id: me.userId }, { cookie: me.cookie })).status).toBe(200);
    expect((await t.call('users', 'getUser', { id: other.userId }, { cookie: me.cookie })).status).toBe(404);
    const seen = await t.call('users', 'getUser', { id: other.userId }, { cookie: admin.cookie });
    expect(seen.body).toMatchObject({ user: { id: other.userId }, roles: [], identityProvider: null });
    expect((await t.call('users', 'getUser', { id: 'nope' }, { cookie: admin.cookie })).status).toBe(404);
  });

  it('lets a user complete their own profile, and support staff edit anyone', async () => {
    const admin = await t.signIn({ support: true });
    const me = await t.signIn({ givenName: '', familyName: '' });
    const mine = await t.call(
      'users',
      'updateUser',
      { id: me.userId, givenName: ' Nia ', familyName: 'Obi' },
      { cookie: me.cookie },
    );
    expect(mine.body.user).toMatchObject({
      givenName: 'Nia',
      familyName: 'Obi',
      name: 'Nia Obi',
      updated: t.deps.now(),
    });
    const blank = await t.call(
      'users',
      'updateUser',
      { id: me.userId, givenName: ' ', familyName: 'Obi' },
      { cookie: me.cookie },
    );
    expect(blank.status).toBe(400);
    expect(blank.body.error.details).toEqual([{ path: 'givenName', id: 'REQUIRED', message: 'Please enter a value' }]);
    const other = await t.createUser();
    expect(
      (
        await t.call(
          'users',
          'updateUser',
          { id: other.userId, givenName: 'X', familyName: 'Y' },
          { cookie: me.cookie },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await t.call(
          'users',
          'updateUser',
          { id: other.userId, givenName: 'X', familyName: 'Y' },
          { cookie: admin.cookie },
        )
      ).status,
    ).toBe(200);
  });

  it('audits every read and change of user details, with who, what and from which request', async () => {
    const admin = await t.signIn({ support: true, givenName: 'Ada', familyName: 'Admin' });
    const other = await t.createUser({ support: true });
    const opts = { cookie: admin.cookie, headers: { 'x-request-id': 'req-users-0001' } };
    await t.call('users', 'getUsersByRole', { roleName: 'Support' }, opts);
    await t.call('users', 'getUser', { id: other.userId }, opts);
    await t.call('users', 'updateUser', { id: other.userId, givenName: 'New', familyName: 'User' }, opts);
    const rows = await listAudit(t.db);
    expect(rows.map((r) => [r.action, r.entityId])).toEqual([
      ['user.list', null],
      ['user.read', other.userId],
      ['user.update', other.userId],
    ]);
    for (const r of rows)
      expect(r).toMatchObject({
        actorUserId: admin.userId,
        actorDisplay: 'Ada Admin',
        requestId: 'req-users-0001',
        at: t.deps.now(),
      });
    expect(rows[0]?.details).toMatchObject({
      roleName: 'Support',
      userIds: expect.arrayContaining([admin.userId, other.userId]),
    });
    expect(rows[2]?.details).toEqual({ changed: ['givenName'] });
  });
  it('refuses a name over 100 characters as INVALID_LENGTH, changing nothing, however long it is', async () => {
    const me = await t.signIn({ givenName: 'Nia', familyName: 'Obi' });
    for (const length of [101, 3000, 100_000]) {
      const res = await t.call(
        'users',
        'updateUser',
        { id: me.userId, givenName: 'x'.repeat(length), familyName: 'y'.repeat(length) },
        { cookie: me.cookie },
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        { path: 'familyName', id: 'INVALID_LENGTH', message: 'Value must be at most 100 characters long' },
        { path: 'givenName', id: 'INVALID_LENGTH', message: 'Value must be at most 100 characters long' },
      ]);
    }
    const hundred = 'z'.repeat(100);
    const ok = await t.call(
      'users',
      'updateUser',
      { id: me.userId, givenName: hundred, familyName: 'Obi' },
      { cookie: me.cookie },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.user.givenName).toBe(hundred);
  });

  it('refuses a key a method does not declare, naming it, on reads and writes alike', async () => {
    const me = await t.signIn({ givenName: 'Nia', familyName: 'Obi' });
    const write = await t.call(
      'users',
      'updateUser',
      { id: me.userId, givenName: 'New', familyName: 'Name', email: 'other@p.test' } as never,
      { cookie: me.cookie },
    );
    expect(write.status).toBe(400);
    expect(write.body.error.details).toEqual([{ path: 'email', id: 'UNKNOWN_FIELD', message: 'Unknown field email' }]);
    const read = await t.call('users', 'getUser', { id: me.userId, withRoles: true } as never, { cookie: me.cookie });
    expect(read.status).toBe(400);
    expect(read.body.error.details).toEqual([
      { path: 'withRoles', id: 'UNKNOWN_FIELD', message: 'Unknown field withRoles' },
    ]);
    const login = await t.call('auth', 'login', {
      username: 'a@p.test',
      password: 'whatever',
      remember: true,
    } as never);
    expect(login.status).toBe(400);
    expect(login.body.error.details[0].path).toBe('remember');
    const unchanged = await t.call('users', 'getUser', { id: me.userId }, { cookie: me.cookie });
    expect(unchanged.body.user.givenName).toBe('Nia');
  });
});
