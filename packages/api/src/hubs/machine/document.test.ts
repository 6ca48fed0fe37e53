import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import {
  asSupport,
  listen,
  seedBusiness,
  TestLocker,
  testMachine,
  withBootedLocker,
  withTestAuth,
} from '../../testing/hub.ts';

/**
 * What docs/LOCKER-PROTOCOL.md promises a locker at the points where the hub once answered otherwise: a
 * refused upgrade's body, lockerNotified, readings ahead of the clock, the refresh hang-up (4004), and a
 * boot of an archived machine.
 */
describeApi(
  'the machine hub as the protocol document says',
  (t) => {
    it('answers a refused upgrade with 401 and the documented JSON body', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const hub = listen(t);
      try {
        const upgrade = (token?: string) =>
          fetch(`${hub.http}/machine`, {
            headers: {
              upgrade: 'websocket',
              connection: 'upgrade',
              'sec-websocket-version': '13',
              'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
          });
        const none = await upgrade();
        expect(none.status).toBe(401);
        expect(await none.json()).toEqual({
          error: { code: 'UNAUTHENTICATED', message: 'A locker connects with its access token' },
        });
        const wrong = await upgrade('x'.repeat(43));
        expect(wrong.status).toBe(401);
        expect(await wrong.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Invalid access token' } });
        t.advance(24 * 60 * 60 * 1000 + 1);
        const expired = await upgrade(m.token);
        expect(expired.status).toBe(401);
        expect(await expired.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: 'Access token expired' } });
      } finally {
        hub.stop();
      }
    });

    it('says lockerNotified only when a locker connection got SetOutOfOrder', async () => {
      await withBootedLocker(t, async ({ locker, machine: m }) => {
        const on = await t.call('machines', 'toggleOutOfOrderStatus', { id: m.id }, asSupport);
        expect(on.body.lockerNotified).toBe(true);
        await locker.waitForHubCall('SetOutOfOrder');
        // The locker goes; the hub has not yet marked it offline (that takes three missed heartbeats).
        locker.close();
        await locker.closed;
        const row = await t.db.selectFrom('machines').select('online').where('id', '=', m.id).executeTakeFirstOrThrow();
        expect(row.online).toBe(true);
        const off = await t.call('machines', 'toggleOutOfOrderStatus', { id: m.id }, asSupport);
        expect(off.status).toBe(200);
        expect(off.body.lockerNotified).toBe(false);
      });
    });

    it('refuses readings ahead of its clock with the hub time instead of dropping them, and stores nothing of the event', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const now = t.deps.now();
        const ahead = await locker.call('TemperatureReadings', {
          eventId: 'ahead',
          seq: 1,
          created: now,
          readings: [
            { created: now - 1000, value: 20 },
            { created: now + 60 * 60 * 1000, value: 21 },
          ],
        });
        expect(ahead.slice(0, 3)).toEqual([4, 'c2', 'TypeConstraintViolation']);
        expect(ahead[4]).toMatchObject({ currentTime: now });
        expect(await t.db.selectFrom('temperature_readings').select('value').execute()).toEqual([]);
        // A clock a minute fast is within the drift allowed.
        const drift = await locker.call('TemperatureReadings', {
          eventId: 'drift',
          seq: 2,
          created: now,
          readings: [{ created: now + 60 * 1000, value: 22 }],
        });
        expect(drift).toEqual([3, 'c3', { stored: 1 }]);
      });
    });

    it('closes the connection made with the old access token when the locker refreshes (4004), and takes the new one', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const hub = listen(t);
      try {
        const old = await TestLocker.connect(hub.url, m.token);
        await old.boot();
        const res = await fetch(`${hub.http}/machine/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: m.refreshToken }).toString(),
        });
        const tokens = (await res.json()) as { access_token: string };
        expect(res.status).toBe(200);
        expect(await old.closed).toBe(4004);
        const fresh = await TestLocker.connect(hub.url, tokens.access_token);
        expect((await fresh.boot())[0]).toBe(3);
        fresh.close();
      } finally {
        hub.stop();
      }
    });

    it('answers the BootNotification of a machine archived meanwhile with an error and closes 4001 (never Rejected)', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, m.token);
        // Archived between the upgrade and the boot (the archive's own disconnect is yet to arrive).
        await t.db.updateTable('machines').set({ archived_at: t.deps.now() }).where('id', '=', m.id).execute();
        const boot = await locker.boot();
        expect(boot.slice(0, 4)).toEqual([4, 'c1', 'InternalError', 'This machine is archived; pair the locker again']);
        expect(await locker.closed).toBe(4001);
      } finally {
        hub.stop();
      }
    });
  },
  withTestAuth,
);
