import { expect, it } from 'bun:test';
import { deviceCodeLimit } from '../../rpc/areas/device-auth.ts';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';
import { asSupport, listen, seedBusiness, TestLocker, withTestAuth } from '../../testing/hub.ts';

describeApi(
  'pairing a locker',
  (t) => {
    const post = async (path: string, body: Record<string, string>) => {
      const res = await t.raw(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
      return { status: res.status, body: await res.json() };
    };
    const grant = 'urn:ietf:params:oauth:grant-type:device_code';
    const pair = (machineId: string, userCode: string) =>
      t.call('auth' as never, 'activateDeviceAuth' as never, { machineId, userCode }, asSupport);

    it('gives a device code and user code, pairs on the right code, and refuses a wrong one', async () => {
      await seedBusiness(t.db);
      const machine = (
        await t.call('machines', 'createMachine', { businessId: 'b1', name: 'L1', numberOfSlots: 4 }, asSupport)
      ).body.machine;
      const code = await post('/machine/device/code', {});
      expect(code.status).toBe(200);
      expect(code.body.user_code).toMatch(/^[BCDFGHJKMNPQRTVWXZ]{8}$/);
      expect(code.body).toMatchObject({ expires_in: 600, interval: 5 });
      const pending = await post('/machine/token', { grant_type: grant, device_code: code.body.device_code });
      expect(pending).toEqual({
        status: 400,
        body: { error: 'authorization_pending', error_description: expect.any(String) },
      });
      const wrong = await pair(machine.id, 'BBBB-BBBB');
      expect(wrong.status).toBe(400);
      expect((wrong.body as { error: { message: string } }).error.message).toBe('invalid code');
      const typed = `${code.body.user_code.slice(0, 4).toLowerCase()}-${code.body.user_code.slice(4)}`;
      expect((await pair(machine.id, typed)).body).toEqual({ ok: true });
      t.advance(10_000);
      const tokens = await post('/machine/token', { grant_type: grant, device_code: code.body.device_code });
      expect(tokens.status).toBe(200);
      expect(tokens.body).toMatchObject({ token_type: 'Bearer', machine_id: machine.id, expires_in: 86400 });
      const used = await post('/machine/token', { grant_type: grant, device_code: code.body.device_code });
      expect(used.body.error).toBe('invalid_grant');

      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, tokens.body.access_token);
        expect((await locker.boot())[2]).toMatchObject({ machineId: machine.id });
        locker.close();
        // Refresh rotates: the new pair works, the old refresh token no longer does.
        const rotated = await post('/machine/token', {
          grant_type: 'refresh_token',
          refresh_token: tokens.body.refresh_token,
        });
        expect(rotated.status).toBe(200);
        const replay = await post('/machine/token', {
          grant_type: 'refresh_token',
          refresh_token: tokens.body.refresh_token,
        });
        expect(replay.body.error).toBe('invalid_grant');
        await expect(TestLocker.connect(hub.url, tokens.body.access_token)).rejects.toThrow();
        // Re-pairing revokes what the machine had.
        const second = await post('/machine/device/code', {});
        await pair(machine.id, second.body.user_code);
        await expect(TestLocker.connect(hub.url, rotated.body.access_token)).rejects.toThrow();
      } finally {
        hub.stop();
      }
    });

    it('tells a locker polling faster than the interval to slow down, forgiving a poll the hub was late with', async () => {
      const code = await post('/machine/device/code', {});
      const poll = () => post('/machine/token', { grant_type: grant, device_code: code.body.device_code });
      expect((await poll()).body.error).toBe('authorization_pending');
      // 3 s after the last (the hub handled that one 2 s late, say): still within the allowance.
      t.advance(3_000);
      expect((await poll()).body.error).toBe('authorization_pending');
      // A locker polling every second is too fast.
      t.advance(1_000);
      expect((await poll()).body).toEqual({
        error: 'slow_down',
        error_description: 'Polling too fast: poll every 10 seconds',
      });
      t.advance(10_000);
      expect((await poll()).body.error).toBe('authorization_pending');
    });

    it('holds a locker told to slow down to its longer interval: 5 seconds more for each slow_down', async () => {
      const code = await post('/machine/device/code', {});
      const poll = () => post('/machine/token', { grant_type: grant, device_code: code.body.device_code });
      expect((await poll()).body.error).toBe('authorization_pending');
      t.advance(1_000);
      expect((await poll()).body.error).toBe('slow_down');
      // Back to the first interval (5 s) is still too fast: it must now be 10 s, and then 15 s.
      t.advance(5_000);
      expect((await poll()).body).toMatchObject({
        error: 'slow_down',
        error_description: 'Polling too fast: poll every 15 seconds',
      });
      t.advance(10_000);
      expect((await poll()).body.error).toBe('slow_down');
      t.advance(20_000);
      expect((await poll()).body.error).toBe('authorization_pending');
    });

    it('lets a code expire', async () => {
      await seedBusiness(t.db);
      const machine = (
        await t.call('machines', 'createMachine', { businessId: 'b1', name: 'L1', numberOfSlots: 4 }, asSupport)
      ).body.machine;
      const code = await post('/machine/device/code', {});
      t.advance(11 * 60_000);
      expect((await pair(machine.id, code.body.user_code)).status).toBe(400);
      const late = await post('/machine/token', { grant_type: grant, device_code: code.body.device_code });
      expect(late.body.error).toBe('expired_token');
    });

    it('limits the codes one address asks for: 429 with Retry-After, nothing stored, then again later', async () => {
      const rows = async () => (await t.db.selectFrom('device_authorizations').select('id').execute()).length;
      const ask = () => t.raw('/machine/device/code', { method: 'POST' });
      // Later than the other tests' clocks, so this address's allowance is whole again.
      t.advance(60 * 60_000);
      for (let i = 0; i < deviceCodeLimit.perAddress; i++) expect((await ask()).status).toBe(200);
      const refused = await ask();
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get('retry-after'));
      expect(wait).toBe(20);
      expect(await refused.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          message: 'Too many pairing codes asked for from this address. Try again in 20 seconds.',
        },
      });
      const before = await rows();
      expect((await ask()).status).toBe(429);
      expect(await rows()).toBe(before);
      t.advance(wait * 1000);
      expect((await ask()).status).toBe(200);
    });

    it('answers the token endpoint in JSON too, and refuses unknown grants', async () => {
      const res = await t.raw('/machine/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
        body: JSON.stringify({ grant_type: 'password' }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe('unsupported_grant_type');
    });
  },
  withTestAuth,
);

describeApi(
  'pairing codes behind a trusted reverse proxy',
  (t) => {
    it("limits each client by the proxy's X-Forwarded-For, not the proxy's own address", async () => {
      const server = listen(t);
      try {
        const ask = (client: string) =>
          fetch(`${server.http}/machine/device/code`, { method: 'POST', headers: { 'x-forwarded-for': client } });
        for (let i = 0; i < deviceCodeLimit.perAddress; i++) expect((await ask('203.0.113.9')).status).toBe(200);
        expect((await ask('203.0.113.9')).status).toBe(429);
        // Another pharmacy behind the same proxy still pairs.
        expect((await ask('198.51.100.20')).status).toBe(200);
        // A client cannot pick a fresh address by adding its own: the proxy's last entry counts.
        expect((await ask('192.0.2.1, 203.0.113.9')).status).toBe(429);
      } finally {
        server.stop();
      }
    });
  },
  undefined,
  { TRUST_PROXY: 'loopback' },
);
