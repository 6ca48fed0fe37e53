import { expect, it, setDefaultTimeout } from 'bun:test';
import { readFile, stat } from 'node:fs/promises';
import { Secret, TOTP } from 'otpauth';
// Test-only: the cli talks to the API over HTTP; the API's test harness gives it a real server.
import { describeApi } from '../../api/src/testing/api.ts';
import { supportWithoutSecondFactor } from '../../api/src/testing/auth.ts';
import { cliHarness, TEST_PASSWORD } from './test-harness.ts';

// Each login hashes with argon2id, which is slow on purpose; a loaded machine needs more than 5 s a test.
setDefaultTimeout(30_000);

describeApi('the medlocker cli', (t) => {
  const { cli, api: apiUrl, credentialsFile } = cliHarness(t);

  async function loginAs(email: string) {
    await supportWithoutSecondFactor(t);
    const res = await cli(['login', '--email', email, '--password-stdin'], { stdin: `${TEST_PASSWORD}\n` });
    expect(res.code).toBe(0);
    return res;
  }

  it('logs in with --password-stdin, keeps the token in a 0600 file keyed by API URL, and says who you are', async () => {
    await supportWithoutSecondFactor(t);
    await t.createUser({
      email: 'ops@medlocker.test',
      password: TEST_PASSWORD,
      support: true,
      givenName: 'Olu',
      familyName: 'Ops',
    });
    const res = await loginAs('OPS@medlocker.test');
    expect(res.stdout).toContain(`Logged in to ${apiUrl()} as Olu Ops <ops@medlocker.test>`);
    const file = JSON.parse(await readFile(credentialsFile(), 'utf8'));
    expect(file.sessions[apiUrl()].token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(credentialsFile())).mode & 0o777).toBe(0o600);

    const who = await cli(['whoami']);
    expect(who.code).toBe(0);
    expect(who.stdout).toContain('ops@medlocker.test');
    expect(who.stdout).toContain('support');
    const whoJson = await cli(['whoami', '--json']);
    expect(whoJson.json()).toMatchObject({ scopes: ['support'], user: { email: 'ops@medlocker.test' } });
  });

  it('signs in through the browser (--browser): the code the person approves in the console', async () => {
    const user = await t.signIn({ email: 'sso.cli@medlocker.test', givenName: 'Sam', familyName: 'Sso' });
    const running = cli(['login', '--browser']);
    // The cli has asked for a code once its row exists; the person approves it in the console.
    let row: { user_code: string } | undefined;
    while (!row) {
      row = await t.db.selectFrom('cli_sign_ins').select('user_code').executeTakeFirst();
      if (!row) await Bun.sleep(20);
    }
    const approved = await t.call('auth', 'approveCliSignIn', { userCode: row.user_code }, { cookie: user.cookie });
    expect(approved.status).toBe(200);
    const res = await running;
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`approve the code ${row.user_code}`);
    expect(res.stdout).toContain(`Logged in to ${apiUrl()} as Sam Sso <sso.cli@medlocker.test>`);
    const who = await cli(['whoami', '--json']);
    expect(who.json()).toMatchObject({ user: { email: 'sso.cli@medlocker.test' } });
  });

  it('answers a second factor with --code, and sends a user who must set one up to the console', async () => {
    const user = await t.signIn({ email: 'two@medlocker.test', password: TEST_PASSWORD });
    const { secret } = (await t.call('auth', 'beginTotpSetup', {}, { cookie: user.cookie })).body;
    const code = () => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.deps.now() });
    await t.call('auth', 'finishTotpSetup', { name: 'Phone', secret, code: code() }, { cookie: user.cookie });
    t.advance(30_000);
    const noCode = await cli(['login', '--email', 'two@medlocker.test', '--password-stdin'], { stdin: TEST_PASSWORD });
    expect(noCode.code).not.toBe(0);
    expect(noCode.stderr).toContain('--code');
    const res = await cli(['login', '--email', 'two@medlocker.test', '--password-stdin', '--code', code()], {
      stdin: TEST_PASSWORD,
    });
    expect(res.code).toBe(0);
    expect((await cli(['whoami'])).stdout).toContain('two@medlocker.test');

    await t.db.deleteFrom('global_settings').execute();
    await t.createUser({ email: 'new.support@medlocker.test', password: TEST_PASSWORD, support: true });
    const setup = await cli(['login', '--email', 'new.support@medlocker.test', '--password-stdin'], {
      stdin: TEST_PASSWORD,
    });
    expect(setup.code).toBe(1);
    expect(setup.stderr).toContain('sign in to the console once to set one up');
  });

  it('explains a refused login and exits 1', async () => {
    await t.createUser({ email: 'ops2@medlocker.test', password: TEST_PASSWORD, support: true });
    const res = await cli(['login', '--email', 'ops2@medlocker.test', '--password-stdin'], { stdin: 'wrong password' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Invalid username or password');
    const json = await cli(['login', '--json', '--email', 'ops2@medlocker.test', '--password-stdin'], {
      stdin: 'wrong password',
    });
    expect(json.json()).toMatchObject({
      ok: false,
      error: { code: 'InvalidCredentials', message: 'Invalid username or password' },
    });
  });

  it('exits 3 with the SPEC message when the server cannot be reached', async () => {
    const res = await cli(['whoami', '--api', 'http://127.0.0.1:1']);
    // Not logged in there: refused before any call.
    expect(res.code).toBe(1);
    const login = await cli(['login', '--api', 'http://127.0.0.1:1', '--email', 'a@b.test', '--password-stdin'], {
      stdin: 'x',
    });
    expect(login.code).toBe(3);
    expect(login.stderr).toContain('The MedLocker server could not be reached');
  });

  it('exits 2 on a wrong command line', async () => {
    expect((await cli(['users', 'list', '--role', 'Nobody'])).code).toBe(2);
    expect((await cli(['users', 'add-role', '--email', 'x@p.test', '--role', 'Business'])).code).toBe(2);
    expect((await cli(['users', 'add-role', '--email', 'x@p.test', '--role', 'Support', '--admin'])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['login'])).code).toBe(2);
    expect((await cli(['--help'])).code).toBe(0);
  });

  it('lists users with a filter, and every page with --all', async () => {
    await t.createUser({ email: 'ops@medlocker.test', password: TEST_PASSWORD, support: true });
    for (let i = 0; i < 30; i++)
      await t.createUser({ email: `staff${String(i).padStart(2, '0')}@medlocker.test`, support: true });
    await loginAs('ops@medlocker.test');
    const first = await cli(['users', 'list', '--json']);
    expect(first.json().users).toHaveLength(25);
    expect(first.json().nextToken).toBeString();
    const all = await cli(['users', 'list', '--all', '--json']);
    expect(all.json().users).toHaveLength(31);
    expect(all.json().nextToken).toBeNull();
    const filtered = await cli(['users', 'list', '--filter', 'STAFF0']);
    expect(filtered.code).toBe(0);
    expect(filtered.stdout).toContain('Email');
    expect(filtered.stdout.match(/staff0\d@medlocker\.test/g)).toHaveLength(10);
    expect((await cli(['users', 'list', '--filter', 'nobody'])).stdout).toBe('No users found.\n');
  });

  it('adds and removes roles, and shows a user', async () => {
    await t.createUser({ email: 'ops@medlocker.test', password: TEST_PASSWORD, support: true });
    await t.db.insertInto('businesses').values({ id: 'biz-1', name: 'Boots Leeds', created: 1, updated: 1 }).execute();
    await loginAs('ops@medlocker.test');
    const added = await cli([
      'users',
      'add-role',
      '--email',
      'new@pharmacy.test',
      '--role',
      'Business',
      '--resource',
      'biz-1',
      '--admin',
      '--json',
    ]);
    expect(added.code).toBe(0);
    const { userId, created } = added.json();
    expect(created).toBe(true);
    const shown = await cli(['users', 'show', userId]);
    expect(shown.stdout).toContain('new@pharmacy.test');
    expect(shown.stdout).toContain('Boots Leeds (biz-1)');
    expect(shown.stdout).toContain('Admin');
    const removed = await cli(['users', 'remove-role', '--user', userId, '--role', 'Business', '--resource', 'biz-1']);
    expect(removed.code).toBe(0);
    expect((await cli(['users', 'show', userId])).stdout).toContain('The user has no roles');
    const again = await cli(['users', 'remove-role', '--user', userId, '--role', 'Business', '--resource', 'biz-1']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('The user does not have that role');
    const badResource = await cli([
      'users',
      'add-role',
      '--email',
      'x@pharmacy.test',
      '--role',
      'Group',
      '--resource',
      'nope',
    ]);
    expect(badResource.code).toBe(1);
    expect(badResource.stderr).toContain('No group with id nope');
  });

  it("says a pharmacy Admin's add-role is an invitation, in the same words for a new and an existing email", async () => {
    await t.db.insertInto('businesses').values({ id: 'biz-2', name: 'Two Pharmacy', created: 1, updated: 1 }).execute();
    await t.createUser({
      email: 'admin@two.test',
      password: TEST_PASSWORD,
      roles: [{ name: 'Business', resourceType: 'business', resourceId: 'biz-2', accessLevels: ['Admin'] }],
    });
    await t.createUser({ email: 'someone@elsewhere.test' });
    await loginAs('admin@two.test');
    for (const email of ['someone@elsewhere.test', 'new@two.test']) {
      const res = await cli(['users', 'add-role', '--email', email, '--role', 'Business', '--resource', 'biz-2']);
      expect(res.code).toBe(0);
      expect(res.stdout).toBe(`Invited ${email}: the Business role on biz-2 is theirs once they accept it\n`);
    }
  });

  it('passes on the API refusal for a user without the support scope', async () => {
    await t.createUser({ email: 'pharmacist@pharmacy.test', password: TEST_PASSWORD });
    await loginAs('pharmacist@pharmacy.test');
    const res = await cli(['users', 'list']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Only support staff manage Support roles');
  });

  it('logs out on the server and forgets the token; a timed-out session is forgotten too', async () => {
    await t.createUser({ email: 'ops@medlocker.test', password: TEST_PASSWORD, support: true });
    await loginAs('ops@medlocker.test');
    const token = JSON.parse(await readFile(credentialsFile(), 'utf8')).sessions[apiUrl()].token;
    expect((await cli(['logout'])).code).toBe(0);
    expect(JSON.parse(await readFile(credentialsFile(), 'utf8')).sessions[apiUrl()]).toBeUndefined();
    expect((await t.call('auth', 'session', {}, { token, origin: null })).status).toBe(401);
    expect((await cli(['whoami'])).stderr).toContain('You are not logged in');

    await loginAs('ops@medlocker.test');
    t.advance(31 * 60_000);
    const timedOut = await cli(['whoami']);
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toContain('Your session has timed out. Please log in again');
    expect(JSON.parse(await readFile(credentialsFile(), 'utf8')).sessions[apiUrl()]).toBeUndefined();
  });
});
