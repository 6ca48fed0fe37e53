import { expectEqual, expectTrue, Failed, within } from './expect.ts';
import type { Run } from './run.ts';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** Signs in (unless given a token) and creates the machine the run pairs; the run ends if it cannot. */
export async function staffMachine(run: Run): Promise<void> {
  const o = run.options;
  run.section = 'staff';
  await run.check(
    'signs in and finds a business for the conformance machine',
    async () => {
      if (!run.staffToken) {
        if (!o.email || !o.password) throw new Failed('give --token, or --email and --password, of a support user');
        const res = await fetch(`${run.base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: run.base },
          body: JSON.stringify({ username: o.email, password: o.password }),
        });
        const cookie = res.headers.getSetCookie().find((c) => c.startsWith('medlocker_session='));
        run.staffToken = cookie
          ? decodeURIComponent(cookie.split(';')[0]?.slice('medlocker_session='.length) ?? '')
          : '';
        if (!run.staffToken) throw new Failed(`sign-in refused (${res.status})`);
      }
      run.businessId = o.business ?? '';
      if (!run.businessId) {
        const list = await run.rpc('businesses', 'listBusinesses', {});
        run.businessId = list.items?.[0]?.id ?? list.businesses?.[0]?.id;
        if (!run.businessId) throw new Failed('no active business: give --business');
      }
      const created = await run.rpc('machines', 'createMachine', {
        businessId: run.businessId,
        name: `Conformance ${new Date().toISOString()}`,
        numberOfSlots: 4,
      });
      run.machineId = created.machine.id;
    },
    true,
  );
}

/** §2 the device flow: a code, the polling answers, staff entering the code, the tokens. */
export async function pairing(run: Run): Promise<void> {
  run.section = '2 pairing';
  await run.check('2.1 a device code with an 8-letter user code, 600 s and a 5 s interval', async () => {
    const res = await run.form('/machine/device/code', {});
    expectEqual(res.status, 200, 'status');
    expectTrue(/^[BCDFGHJKMNPQRTVWXZ]{8}$/.test(res.body.user_code), `user_code ${res.body.user_code}`);
    expectEqual([res.body.expires_in, res.body.interval], [600, 5], 'expires_in, interval');
    expectTrue(typeof res.body.device_code === 'string' && res.body.device_code.length >= 32, 'device_code');
  });
  await run.check('2.3 authorization_pending, then slow_down for a poll that comes too soon', async () => {
    const code = await run.form('/machine/device/code', {});
    const poll = () => run.form('/machine/token', { grant_type: DEVICE_GRANT, device_code: code.body.device_code });
    const first = await poll();
    expectEqual([first.status, first.body.error], [400, 'authorization_pending'], 'first poll');
    const second = await poll();
    expectEqual([second.status, second.body.error], [400, 'slow_down'], 'an immediate second poll');
  });
  await run.check('2.3 invalid_grant, unsupported_grant_type, invalid_request', async () => {
    const error = async (body: Record<string, string>) => (await run.form('/machine/token', body)).body.error;
    expectEqual(await error({ grant_type: DEVICE_GRANT, device_code: 'nope' }), 'invalid_grant', 'unknown code');
    expectEqual(await error({ grant_type: 'password' }), 'unsupported_grant_type', 'grant');
    expectEqual(await error({ grant_type: DEVICE_GRANT }), 'invalid_request', 'no code');
  });
  await run.check('2.2–2.3 staff enter the code; the next poll gets the tokens', () => activate(run), true);
}

async function activate(run: Run): Promise<void> {
  const code = await run.form('/machine/device/code', {});
  await run.rpc('auth', 'activateDeviceAuth', {
    machineId: run.machineId,
    userCode: `${code.body.user_code.slice(0, 4)}-${code.body.user_code.slice(4)}`.toLowerCase(),
  });
  const poll = () => run.form('/machine/token', { grant_type: DEVICE_GRANT, device_code: code.body.device_code });
  const res = await poll();
  expectEqual(res.status, 200, `status (${JSON.stringify(res.body)})`);
  expectEqual([res.body.token_type, res.body.machine_id], ['Bearer', run.machineId], 'token_type, machine_id');
  run.tokens = { access: res.body.access_token, refresh: res.body.refresh_token };
  expectEqual((await poll()).body.error, 'invalid_grant', 'the used device code');
}

/** §2.4 a refresh rotates both tokens and ends the connection the old ones opened. */
export async function refresh(run: Run): Promise<void> {
  run.section = '2.4 refresh';
  await run.check(
    'a refresh rotates the tokens, closes the old connection (4004) and spends the old refresh token',
    async () => {
      const refreshWith = (token: string) =>
        run.form('/machine/token', { grant_type: 'refresh_token', refresh_token: token });
      const res = await refreshWith(run.tokens.refresh);
      expectEqual(res.status, 200, `status (${JSON.stringify(res.body)})`);
      const old = run.tokens;
      run.tokens = { access: res.body.access_token, refresh: res.body.refresh_token };
      expectEqual(await within(run.wire.closed, 5000, 'old connection'), 4004, 'close code');
      expectEqual((await refreshWith(old.refresh)).body.error, 'invalid_grant', 'the old refresh token');
      expectEqual((await run.upgrade(old.access)).status, 401, 'the old access token');
      const wire = run.connect();
      await within(wire.opened, 5000, 'reconnect with the new token');
      expectEqual(
        (await wire.call('BootNotification', { vendor: 'Conformance', model: 'C1', firmwareVersion: '1' }))[0],
        3,
        'boot',
      );
    },
  );
}

/** §2.5 archiving the machine ends its connection and its tokens. */
export async function archiving(run: Run): Promise<void> {
  run.section = '2.5 archiving';
  await run.check('archiving closes the connection with 4001; the tokens stop working', async () => {
    await run.rpc('machines', 'toggleArchive', { id: run.machineId });
    expectEqual(await within(run.wire.closed, 5000, 'connection'), 4001, 'close code');
    expectEqual((await run.upgrade(run.tokens.access)).status, 401, 'connect');
    expectEqual(
      (await run.form('/machine/token', { grant_type: 'refresh_token', refresh_token: run.tokens.refresh })).body.error,
      'invalid_grant',
      'refresh',
    );
  });
}
