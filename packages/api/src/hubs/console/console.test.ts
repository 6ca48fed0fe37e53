import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import {
  asSupport,
  eventually,
  listen,
  seedBusiness,
  seedSupportUser,
  TestLocker,
  testMachine,
  withTestAuth,
} from '../../testing/hub.ts';

type Push = { action: string; params: Record<string, unknown> };

function consoleSocket(url: string, cookie: string, origin?: string) {
  const pushes: Push[] = [];
  const ws = new WebSocket(`${url}/ws`, { headers: origin ? { cookie, origin } : { cookie } } as never);
  ws.onmessage = (m) => pushes.push(JSON.parse(String(m.data)));
  const opened = new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error('refused'));
    ws.onclose = () => reject(new Error('closed'));
  });
  return { ws, pushes, opened };
}

describeApi(
  'the console hub',
  (t) => {
    it('refuses a browser without a session, or of a user with neither the support scope nor a business role', async () => {
      const hub = listen(t);
      try {
        await expect(consoleSocket(hub.url, '').opened).rejects.toThrow();
        await expect(consoleSocket(hub.url, 'session=pharmacy').opened).rejects.toThrow();
      } finally {
        hub.stop();
      }
    });

    it('refuses an upgrade from another site’s page, even with a valid session, as RPC calls are', async () => {
      const hub = listen(t);
      try {
        const refused = await fetch(`${hub.http}/ws`, {
          headers: {
            ...asSupport,
            origin: 'http://evil.example',
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-version': '13',
            'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          },
        });
        expect(refused.status).toBe(403);
        expect(await refused.json()).toMatchObject({
          error: { code: 'FORBIDDEN', message: 'Cross-origin requests are not accepted' },
        });
        await expect(consoleSocket(hub.url, asSupport.cookie, 'http://evil.example').opened).rejects.toThrow();
        const own = consoleSocket(hub.url, asSupport.cookie, hub.http);
        await own.opened;
        own.ws.close();
      } finally {
        hub.stop();
      }
    });

    it('pushes a machine’s events only to consoles watching its business or the fleet, and a test machine’s not to the fleet', async () => {
      await seedBusiness(t.db, 'b1');
      await seedBusiness(t.db, 'b2');
      // The test machine's maker, whom its alarms notify.
      await seedSupportUser(t.db);
      const m = await testMachine(t, 'b1');
      const hub = listen(t);
      try {
        const watching = consoleSocket(hub.url, 'session=support');
        const other = consoleSocket(hub.url, 'session=support');
        const fleet = consoleSocket(hub.url, 'session=support');
        await Promise.all([watching.opened, other.opened, fleet.opened]);
        watching.ws.send(JSON.stringify({ action: 'subscribe', params: { businessId: 'b1' } }));
        other.ws.send(JSON.stringify({ action: 'subscribe', params: { businessId: 'b2' } }));
        fleet.ws.send(JSON.stringify({ action: 'subscribe', params: { fleet: true } }));
        await eventually(() => [watching, other, fleet].every((c) => c.pushes.some((p) => p.action === 'subscribed')));

        const locker = await TestLocker.connect(hub.url, m.token);
        await locker.boot();
        await locker.call('MachineEvent', { eventId: 'x1', seq: 1, created: t.deps.now(), code: 'EM_0016' });
        await eventually(() => watching.pushes.some((p) => p.action === 'notification'));
        expect(watching.pushes.map((p) => p.action)).toEqual(
          expect.arrayContaining(['statusUpdate', 'machineEvent', 'notification']),
        );
        await t.call('machines', 'toggleArchive', { id: m.id }, asSupport);
        await eventually(() => watching.pushes.some((p) => p.action === 'archived'));
        expect(other.pushes.map((p) => p.action)).toEqual(['subscribed']);
        // A QA test machine is not part of the fleet: the dashboard hears none of it. A machine that is
        // (out of order, set by staff) reaches it, after the test machine's pushes on the same socket.
        const real = (
          await t.call('machines', 'createMachine', { businessId: 'b1', name: 'Front', numberOfSlots: 8 }, asSupport)
        ).body.machine;
        await t.call('machines', 'toggleOutOfOrderStatus', { id: real.id }, asSupport);
        await eventually(() => fleet.pushes.some((p) => p.action === 'machineEvent'));
        const about = (p: Push) =>
          (p.params.machine as { id?: string } | undefined)?.id ??
          (p.params.event as { machineId?: string } | undefined)?.machineId ??
          (p.params.notification as { machineId?: string } | undefined)?.machineId ??
          p.params.machineId ??
          p.params.id;
        const fleetPushes = fleet.pushes.filter((p) => p.action !== 'subscribed');
        expect(fleetPushes.length).toBeGreaterThan(0);
        expect(fleetPushes.every((p) => about(p) === real.id)).toBe(true);
        for (const c of [watching, other, fleet]) c.ws.close();
      } finally {
        hub.stop();
      }
    });

    it('a console subscribed to notifications hears every alarm’s notification, of a test machine too, and nothing else', async () => {
      await seedBusiness(t.db, 'b1');
      await seedSupportUser(t.db);
      const m = await testMachine(t, 'b1');
      const hub = listen(t);
      try {
        const bell = consoleSocket(hub.url, 'session=support');
        await bell.opened;
        bell.ws.send(JSON.stringify({ action: 'subscribe', params: { notifications: true } }));
        await eventually(() => bell.pushes.some((p) => p.action === 'subscribed'));
        const locker = await TestLocker.connect(hub.url, m.token);
        await locker.boot();
        await locker.call('MachineEvent', { eventId: 'n1', seq: 1, created: t.deps.now(), code: 'EM_0016' });
        await eventually(() => bell.pushes.some((p) => p.action === 'notification'));
        expect(bell.pushes.map((p) => p.action)).toEqual(['subscribed', 'notification']);
        bell.ws.send(JSON.stringify({ action: 'unsubscribe', params: { notifications: true } }));
        await eventually(() => bell.pushes.some((p) => p.action === 'unsubscribed'));
        await locker.call('MachineEvent', { eventId: 'n2', seq: 2, created: t.deps.now(), code: 'EM_0016' });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(bell.pushes.filter((p) => p.action === 'notification')).toHaveLength(1);
        bell.ws.close();
      } finally {
        hub.stop();
      }
    });

    it("gives a pharmacy user the pushes of the businesses its Business and Group roles reach, and no other business's", async () => {
      for (const id of ['b1', 'b2', 'b3']) await seedBusiness(t.db, id);
      await t.db
        .insertInto('groups')
        .values({
          id: 'g1',
          name: 'Group 1',
          parent_id: null,
          email: null,
          address_line1: null,
          address_line2: null,
          address_line3: null,
          post_town: null,
          postcode: null,
          logo_path: null,
          logo_background_color: null,
          archived_at: null,
          archived_by_id: null,
          archived_by_display: null,
          created: 1,
          updated: 1,
        } as never)
        .execute();
      await t.db.updateTable('businesses').set({ group_id: 'g1' }).where('id', '=', 'b3').execute();
      await t.db
        .insertInto('users')
        .values({
          id: 'u-pharm',
          email: 'pat@pharmacy.test',
          email_normalised: 'pat@pharmacy.test',
          password_hash: null,
          identity_provider_id: null,
          front_end: 'pharmacy',
          created: 1,
          updated: 1,
        })
        .execute();
      await t.db
        .insertInto('user_roles')
        .values([
          { id: 'r1', user_id: 'u-pharm', name: 'Business', resource_type: 'business', resource_id: 'b1', created: 1 },
          { id: 'r2', user_id: 'u-pharm', name: 'Group', resource_type: 'group', resource_id: 'g1', created: 1 },
        ])
        .execute();
      const machines = {
        b1: (await testMachine(t, 'b1', 'One')).id,
        b2: (await testMachine(t, 'b2', 'Two')).id,
        b3: (await testMachine(t, 'b3', 'Three')).id,
      };
      const hub = listen(t);
      try {
        const pharmacy = consoleSocket(hub.url, 'session=pharmacy');
        await pharmacy.opened;
        // Asking for another business (and everything) is allowed, but brings only what it may see.
        for (const params of [{ businessId: 'b1' }, { businessId: 'b2' }, { businessId: 'b3' }, { groupId: 'g1' }]) {
          pharmacy.ws.send(JSON.stringify({ action: 'subscribe', params }));
        }
        await eventually(() => pharmacy.pushes.filter((p) => p.action === 'subscribed').length === 4);
        for (const id of Object.values(machines)) await t.call('machines', 'toggleArchive', { id }, asSupport);
        await t.call('groups', 'archiveGroup', { id: 'g1' }, asSupport);
        await eventually(() => pharmacy.pushes.filter((p) => p.action === 'archived').length >= 3);
        await Bun.sleep(100);
        const archived = pharmacy.pushes
          .filter((p) => p.action === 'archived')
          .map((p) => (p.params.groupId as string | undefined) ?? (p.params.id as string));
        expect(archived.sort()).toEqual([machines.b1, machines.b3, 'g1'].sort());
        pharmacy.ws.close();
      } finally {
        hub.stop();
      }
    });
  },
  withTestAuth,
);
