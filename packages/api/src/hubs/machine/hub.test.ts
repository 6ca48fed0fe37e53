import { expect, it } from 'bun:test';
import { sql } from 'kysely';
import { credentialPolicy } from '../../areas/device-auth/repository.ts';
import { sweepOffline } from '../../areas/machines/index.ts';
import { liveOf } from '../../live/live.ts';
import { describeApi } from '../../testing/api.ts';
import {
  eventually,
  fastHub,
  listen,
  makeReal,
  seedBusiness,
  seedSupportUser,
  TestLocker,
  testMachine,
  withBootedLocker,
  withTestAuth,
} from '../../testing/hub.ts';

describeApi(
  'the machine hub',
  (t) => {
    it('refuses a connection without a token, with a wrong one, or with an expired one', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const hub = listen(t);
      try {
        await expect(TestLocker.connect(hub.url, 'x'.repeat(43))).rejects.toThrow();
        const res = await fetch(`${hub.http}/machine`, { headers: { upgrade: 'websocket', connection: 'upgrade' } });
        expect(res.status).toBe(401);
        t.advance(credentialPolicy.accessTokenMs + 1);
        await expect(TestLocker.connect(hub.url, m.token)).rejects.toThrow();
      } finally {
        hub.stop();
      }
    });

    it('accepts the token as a Bearer header or as a subprotocol, and answers with its subprotocol', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const hub = listen(t);
      try {
        const a = await TestLocker.connect(hub.url, m.token, 'subprotocol');
        expect(a.protocol).toBe('medlocker.locker.v1');
        const boot = await a.boot();
        expect(boot[0]).toBe(3);
        expect(boot[2]).toMatchObject({ status: 'Accepted', heartbeatInterval: 60, machineId: m.id, lastSeq: 0 });
        a.close();
      } finally {
        hub.stop();
      }
    });

    it('answers malformed frames with an error frame and keeps the connection', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, m.token);
        expect((await locker.raw('{not json')).slice(0, 3)).toEqual([4, '-1', 'FormationViolation']);
        expect((await locker.raw('[2,"a"]')).slice(0, 3)).toEqual([4, '-1', 'FormationViolation']);
        expect((await locker.raw('[2,"z1","Heartbeat","x"]', 'z1')).slice(0, 3)).toEqual([
          4,
          'z1',
          'FormationViolation',
        ]);
        expect((await locker.call('Teleport', {})).slice(0, 3)).toEqual([4, 'c1', 'NotImplemented']);
        expect((await locker.call('Heartbeat', {}))[2]).toBe('ProtocolError');
        await locker.boot();
        const bad = await locker.call('MachineEvent', { eventId: 'e1', seq: 'one', created: 1, code: 'EM_0001' });
        expect(bad[2]).toBe('TypeConstraintViolation');
        // PostgreSQL text cannot hold U+0000: refused as malformed, not failed in the database (which
        // would answer InternalError and have the locker send it again forever).
        const nul = await locker.raw(
          '[2,"n1","MachineEvent",{"eventId":"e2","seq":1,"created":1,"code":"EM_0004","message":"door\\u0000"}]',
          'n1',
        );
        expect(nul.slice(0, 4)).toEqual([
          4,
          'n1',
          'FormationViolation',
          'Text cannot contain the NUL character (\\u0000)',
        ]);
        expect(await t.db.selectFrom('machine_events').select('id').where('code', '=', 'EM_0004').execute()).toEqual(
          [],
        );
        expect((await locker.call('Heartbeat', {}))[0]).toBe(3);
        locker.close();
      } finally {
        hub.stop();
      }
    });

    it('refuses a payload that names another machine with a SecurityError', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const other = await testMachine(t, 'b1', 'Locker 2');
      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, m.token);
        await locker.boot();
        const answer = await locker.call('MachineEvent', {
          machineId: other.id,
          eventId: 'e1',
          seq: 1,
          created: t.deps.now(),
          code: 'EM_0019',
        });
        expect(answer.slice(0, 3)).toEqual([4, 'c2', 'SecurityError']);
        const events = await t.db.selectFrom('machine_events').selectAll().where('code', '=', 'EM_0019').execute();
        expect(events).toHaveLength(0);
        locker.close();
      } finally {
        hub.stop();
      }
    });

    it('stores a replayed event once and answers the replay with the same result', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const contents: unknown[] = [];
        const stop = liveOf(t.deps).onConsoleEvent((e) => {
          if ('contents' in e.message.params) contents.push(e.message.params.contents);
        });
        const event = { eventId: 'ev-1', seq: 1, created: t.deps.now(), barcode: 'BC1', location: 'A1' };
        const first = await locker.call('BagLoaded', event);
        const again = await locker.call('BagLoaded', event);
        expect(first[0]).toBe(3);
        expect(again[2]).toEqual(first[2]);
        // Consoles showing the contents hear of the change once, not of the replay.
        await Bun.sleep(0);
        stop();
        expect(contents).toEqual(['loaded']);
        const readings = {
          eventId: 'ev-2',
          seq: 2,
          created: t.deps.now(),
          readings: [{ created: t.deps.now(), value: 20 }],
        };
        await locker.call('TemperatureReadings', readings);
        await locker.call('TemperatureReadings', readings);
        expect(await t.db.selectFrom('bags').selectAll().execute()).toHaveLength(1);
        expect(await t.db.selectFrom('temperature_readings').selectAll().execute()).toHaveLength(1);
        expect(await t.db.selectFrom('locker_event_receipts').selectAll().execute()).toHaveLength(2);
      });
    });

    it('stores readings once whether their commit waits for the disk or not, and leaves the connection as it was', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const hub = listen(t);
      const configured = t.deps.config.readingsCommit;
      try {
        const locker = await TestLocker.connect(hub.url, m.token);
        await locker.boot();
        for (const [i, mode] of (['fast', 'durable'] as const).entries()) {
          t.deps.config.readingsCommit = mode;
          const at = t.deps.now() - 1000 * (i + 1);
          const readings = {
            eventId: `r-${mode}`,
            seq: i + 1,
            created: at,
            readings: [{ created: at, value: 20 + i }],
          };
          const first = await locker.call('TemperatureReadings', readings);
          expect(first[2]).toEqual({ stored: 1 });
          expect((await locker.call('TemperatureReadings', readings))[2]).toEqual(first[2]);
        }
        const stored = await t.db.selectFrom('temperature_readings').select('value').orderBy('value').execute();
        expect(stored.map((r) => r.value)).toEqual([20, 21]);
        expect(await t.db.selectFrom('locker_event_receipts').select('locker_event_id').execute()).toHaveLength(2);
        // The fast commit's setting ends with its own statement: the next one is back to the connection's
        // own (the test database's `off`, db/src/testing.ts; `on` in production), not a setting left behind.
        const { rows } = await sql<{ setting: string; reset_val: string; source: string }>`
          select setting, reset_val, source from pg_settings where name = 'synchronous_commit'`.execute(t.db);
        expect(rows[0]?.setting).toBe(rows[0]?.reset_val as string);
        expect(rows[0]?.source).not.toBe('session');
        locker.close();
      } finally {
        t.deps.config.readingsCommit = configured;
        hub.stop();
      }
    });

    it('stores an offline queue replayed in order after the hub restarts, losing nothing', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      let hub = listen(t);
      const locker = await TestLocker.connect(hub.url, m.token);
      await locker.boot();
      const now = t.deps.now();
      const queue = Array.from({ length: 30 }, (_, i) => ({
        action: i % 3 === 0 ? 'MachineEvent' : 'TemperatureReadings',
        payload:
          i % 3 === 0
            ? { eventId: `q${i}`, seq: i + 1, created: now + i, code: 'EM_0017' }
            : { eventId: `q${i}`, seq: i + 1, created: now + i, readings: [{ created: now + i, value: 19 }] },
      }));
      // The first five are acknowledged, then the hub goes away before the rest.
      for (const e of queue.slice(0, 5)) expect((await locker.call(e.action, e.payload))[0]).toBe(3);
      hub.stop();
      await eventually(() => locker.received.length >= 6 || true);
      hub = listen(t);
      try {
        const again = await TestLocker.connect(hub.url, m.token);
        const boot = await again.boot(30);
        expect(boot[2]).toMatchObject({ lastSeq: 5 });
        // The locker replays everything it was not sure of, from the first unacknowledged, in order.
        for (const e of queue.slice(3)) {
          const answer = await again.call(e.action, e.payload);
          expect(answer[0] === 3 ? 3 : answer).toBe(3);
        }
        const receipts = await t.db
          .selectFrom('locker_event_receipts')
          .select('sequence')
          .orderBy('sequence')
          .execute();
        expect(receipts.map((r) => r.sequence)).toEqual(queue.map((_, i) => i + 1));
        expect(
          await t.db.selectFrom('machine_events').selectAll().where('code', '=', 'EM_0017').execute(),
        ).toHaveLength(10);
        expect(await t.db.selectFrom('temperature_readings').selectAll().execute()).toHaveLength(20);
        again.close();
      } finally {
        hub.stop();
      }
    });

    it('tells a connected locker when staff switch the machine out of order', async () => {
      await withBootedLocker(t, async ({ locker, machine: m }) => {
        const res = await t.call('machines', 'toggleOutOfOrderStatus', { id: m.id }, { cookie: 'session=support' });
        expect(res.status).toBe(200);
        expect(res.body.machine.outOfOrderStatus).toMatchObject({
          userId: 'u-support',
          userDisplayName: 'Sam Support',
        });
        const call = await locker.waitForHubCall('SetOutOfOrder');
        expect(call[3]).toMatchObject({ outOfOrder: true });
        const codes = await t.db.selectFrom('machine_events').select('code').execute();
        expect(codes.map((c) => c.code)).toContain('MP_0003');
      });
    });

    it('recomputes the average of a machine at most once per recomputeEveryMs, with what arrived meanwhile', async () => {
      await withBootedLocker(
        t,
        async ({ locker, machine: m }) => {
          const now = t.deps.now();
          const reading = (i: number, value: number) => ({
            eventId: `r${i}`,
            seq: i + 1,
            created: now,
            readings: [{ created: now - (10 - i) * 1000, value }],
          });
          await locker.call('TemperatureReadings', reading(0, 20));
          await eventually(async () => (await machineOf(m.id)).temperature_average === 20);
          await locker.call('TemperatureReadings', reading(1, 22));
          await Bun.sleep(100);
          expect((await machineOf(m.id)).temperature_average).toBe(20);
          t.advance(60_000);
          await locker.call('TemperatureReadings', reading(2, 24));
          await eventually(async () => (await machineOf(m.id)).temperature_average === 22);
        },
        { ...fastHub, batch: { maxReadings: 2000, recomputeEveryMs: 60_000 } },
      );
    });

    it('keeps the 3-hour average, raises MP_0001 once when it leaves 15–25 °C, and resolves its alarm when it is back', async () => {
      await withBootedLocker(t, async ({ locker, machine: m }) => {
        const now = t.deps.now();
        const old = { eventId: 'old', seq: 1, created: now, readings: [{ created: now - 4 * 3600_000, value: 10 }] };
        await locker.call('TemperatureReadings', old);
        const warm = (i: number, value: number) => ({
          eventId: `w${i}`,
          seq: i + 2,
          created: now,
          readings: [{ created: now - i * 1000, value }],
        });
        await locker.call('TemperatureReadings', warm(0, 24));
        await eventually(async () => (await machineOf(m.id)).temperature_average === 24);
        await locker.call('TemperatureReadings', warm(1, 30));
        await eventually(async () => (await machineOf(m.id)).temperature_average === 27);
        await locker.call('TemperatureReadings', warm(2, 30));
        await eventually(async () => Math.abs(((await machineOf(m.id)).temperature_average ?? 0) - 28) < 1e-9);
        const excursions = await t.db.selectFrom('machine_events').selectAll().where('code', '=', 'MP_0001').execute();
        expect(excursions).toHaveLength(1);
        expect(excursions[0]?.data).toMatchObject({ average: 27 });
        const got = await t.call('machines', 'getMachine', { id: m.id }, { cookie: 'session=support' });
        expect(got.body.machine.temperatureStatus).toMatchObject({ average: 28, lastExcursionAt: now });
        expect(got.body.machine.temperatureStatus?.readings).toHaveLength(3);

        // Back in the band: the excursion's alarm resolves itself, by the locker, with MP_0015.
        const alarm = () => t.db.selectFrom('alarms').selectAll().where('code', '=', 'MP_0001').executeTakeFirst();
        expect(await alarm()).toMatchObject({ state: 'open' });
        await locker.call('TemperatureReadings', warm(3, 10));
        await locker.call('TemperatureReadings', warm(4, 10));
        await eventually(async () => (await alarm())?.state === 'resolved');
        expect(await alarm()).toMatchObject({ resolved_how: 'locker', resolved_by_id: null });
        const ended = await t.db.selectFrom('machine_events').selectAll().where('code', '=', 'MP_0015').execute();
        expect(ended.map((e) => e.data)).toEqual([expect.objectContaining({ code: 'MP_0001', how: 'locker' })]);
      });
    });

    it('raises no MP_0001 for a business that turned temperature alerts off, and still keeps the average', async () => {
      await withBootedLocker(t, async ({ locker, machine: m }) => {
        const off = await t.call(
          'businessSettings',
          'updateBusinessFeatureSettings',
          { businessId: 'b1', settings: { temperatureSettings: { enableTemperatureAlerts: false } } },
          { cookie: 'session=support' },
        );
        expect(off.status).toBe(200);
        const now = t.deps.now();
        await locker.call('TemperatureReadings', {
          eventId: 'hot',
          seq: 1,
          created: now,
          readings: [{ created: now - 1000, value: 30 }],
        });
        await eventually(async () => (await machineOf(m.id)).temperature_average === 30);
        await Bun.sleep(50);
        const excursions = await t.db.selectFrom('machine_events').selectAll().where('code', '=', 'MP_0001').execute();
        expect(excursions).toEqual([]);
        expect(await t.db.selectFrom('notifications').selectAll().execute()).toEqual([]);
      });
    });

    it("stores a locker's StatusNotifications as sent and lists them newest first, 25 a page", async () => {
      await withBootedLocker(t, async ({ locker, machine: m }) => {
        const now = t.deps.now();
        const first = { door: 'closed', slots: { free: 10, used: 2 }, terminal: null };
        expect((await locker.call('StatusNotification', { observations: first, created: now - 60_000 }))[0]).toBe(3);
        for (let i = 1; i <= 25; i++) await locker.call('StatusNotification', { observations: { door: 'open', i } });
        const page1 = await t.call('machines', 'listMachineStatus', { machineId: m.id }, { cookie: 'session=support' });
        expect(page1.status).toBe(200);
        expect(page1.body.statuses).toHaveLength(25);
        expect(page1.body.statuses[0]).toMatchObject({
          businessId: 'b1',
          machineId: m.id,
          created: now,
          observations: { door: 'open', i: 25 },
        });
        const page2 = await t.call(
          'machines',
          'listMachineStatus',
          { machineId: m.id, nextToken: page1.body.nextToken },
          { cookie: 'session=support' },
        );
        // Newest first by arrival: the boot's own status (BootNotification stores one) came before them all.
        expect(page2.body.statuses.map((s) => [s.created, s.observations])).toEqual([
          [now - 60_000, first],
          [now, { boot: expect.objectContaining({ vendor: 'Test', model: 'T1', firmwareVersion: '1.0' }) }],
        ]);
        expect(page2.body.nextToken).toBeNull();
      });
    });

    it('turns an alarm into a staff notification and queued SMS and email to keyholders', async () => {
      await seedBusiness(t.db, 'b1', { mobiles: ['+447700900123'], emails: ['alerts@pharmacy.test'], name: 'High St' });
      const m = await testMachine(t);
      await makeReal(t, m.id);
      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, m.token);
        await locker.boot();
        const answer = await locker.call('MachineEvent', {
          eventId: 'a1',
          seq: 1,
          created: t.deps.now(),
          code: 'EM_0003',
        });
        expect(answer[0]).toBe(3);
        const [notification] = await t.db.selectFrom('notifications').selectAll().execute();
        expect(notification?.level).toBe('critical');
        expect(notification?.body).toContain('There has been a power disruption at Locker 1 at High St');
        const outbox = await t.db.selectFrom('message_outbox').selectAll().orderBy('channel').execute();
        expect(outbox.map((o) => [o.channel, o.recipient, o.status])).toEqual([
          ['email', 'alerts@pharmacy.test', 'pending'],
          ['sms', '+447700900123', 'pending'],
        ]);
        // A code without an alarm template is stored but notifies nobody.
        await locker.call('MachineEvent', { eventId: 'a2', seq: 2, created: t.deps.now(), code: 'EM_0017' });
        expect(await t.db.selectFrom('notifications').selectAll().execute()).toHaveLength(1);
        locker.close();
      } finally {
        hub.stop();
      }
    });

    it("tells only its maker of a test machine's alarms, never the business's keyholders or addresses", async () => {
      await seedBusiness(t.db, 'b1', { mobiles: ['+447700900123'], emails: ['alerts@pharmacy.test'], name: 'High St' });
      await seedSupportUser(t.db);
      const m = await testMachine(t);
      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, m.token);
        await locker.boot();
        await locker.call('MachineEvent', { eventId: 'a1', seq: 1, created: t.deps.now(), code: 'EM_0016' });
        const outbox = await t.db
          .selectFrom('message_outbox')
          .select(['channel', 'recipient', 'template_key'])
          .execute();
        expect(outbox).toEqual([{ channel: 'email', recipient: 'sam@medlocker.test', template_key: 'alarm.EM_0016' }]);
        const notifications = await t.db.selectFrom('notifications').select(['user_id', 'title']).execute();
        expect(notifications).toEqual([{ user_id: 'u-support', title: 'Alarm triggered: Locker 1' }]);
        // Its maker gone (or never recorded): the alarm is on its Events tab, and nobody is told.
        await t.db.deleteFrom('notifications').execute();
        await t.db.deleteFrom('message_outbox').execute();
        await t.db.updateTable('machines').set({ created_by: null }).execute();
        await locker.call('MachineEvent', { eventId: 'a2', seq: 2, created: t.deps.now(), code: 'EM_0003' });
        expect(await t.db.selectFrom('message_outbox').selectAll().execute()).toEqual([]);
        expect(await t.db.selectFrom('notifications').selectAll().execute()).toEqual([]);
        const codes = await t.db.selectFrom('machine_events').select('code').where('machine_id', '=', m.id).execute();
        expect(codes.map((c) => c.code)).toEqual(expect.arrayContaining(['EM_0016', 'EM_0003']));
        locker.close();
      } finally {
        hub.stop();
      }
    });

    it('marks a machine offline after missed heartbeats and raises an event', async () => {
      await withBootedLocker(t, async ({ locker, machine: m }) => {
        expect((await machineOf(m.id)).online).toBe(true);
        t.advance(2 * 60_000);
        expect(await sweepOffline(t.deps, 60)).toEqual([]);
        t.advance(2 * 60_000);
        expect(await sweepOffline(t.deps, 60)).toEqual([m.id]);
        expect((await machineOf(m.id)).online).toBe(false);
        const codes = (await t.db.selectFrom('machine_events').select('code').execute()).map((r) => r.code);
        expect(codes).toContain('MP_0006');
        await locker.call('Heartbeat', {});
        expect((await machineOf(m.id)).online).toBe(true);
      });
    });

    const machineOf = (id: string) =>
      t.db.selectFrom('machines').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  },
  withTestAuth,
);
