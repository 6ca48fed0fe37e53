import { expect, it } from 'bun:test';
import { createApp } from '../../app.ts';
import { listAudit } from '../../audit/audit.ts';
import { type Envelope, LiveHub, type LiveMessage, type LiveTransport, liveOf } from '../../live/live.ts';
import { describeApi, TEST_ORIGIN } from '../../testing/api.ts';
import { asSupport, seedBusiness, TestLocker, testMachine, withBootedLocker, withTestAuth } from '../../testing/hub.ts';

/** One bus for several LiveHubs, as PostgreSQL's NOTIFY is for several api processes. */
function sharedBus() {
  const handlers: ((e: Envelope) => void)[] = [];
  return (): LiveTransport => ({
    send: (envelope) =>
      queueMicrotask(() => {
        for (const h of handlers) h(structuredClone(envelope));
      }),
    onReceive: (handler) => void handlers.push(handler),
    close: async () => {},
  });
}

const bus = sharedBus();

describeApi(
  'commands staff send a locker',
  (t) => {
    it('asks for a status: the locker answers, sends the message, and the command is on the timeline, audited and pushed', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        const pushed: LiveMessage[] = [];
        liveOf(t.deps).onConsoleEvent((e) => pushed.push(e.message));
        const res = await t.call('machines', 'triggerStatus', { id: machine.id, requested: 'Heartbeat' }, asSupport);
        expect(res.status).toBe(200);
        expect(res.body.status).toBe('Accepted');
        expect(res.body.event).toMatchObject({
          code: 'MP_0010',
          message: 'Sam Support asked the locker for a Heartbeat: accepted',
          data: { requested: 'Heartbeat', status: 'Accepted', userDisplayName: 'Sam Support' },
        });
        const call = await locker.waitForHubCall('TriggerStatus');
        expect(call[3]).toEqual({ requested: 'Heartbeat' });
        const audits = await listAudit(t.db, 'machine.triggerStatus');
        expect(audits[0]).toMatchObject({
          entityId: machine.id,
          details: { requested: 'Heartbeat', status: 'Accepted' },
        });
        await Bun.sleep(20);
        expect(pushed.some((m) => m.action === 'machineEvent' && m.params.event.code === 'MP_0010')).toBe(true);
      });
    });

    it("gives the locker's refusals as they are: Rejected, NotSupported, and an error frame as NotSupported", async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        locker.reply = (action, payload) =>
          action === 'Reset'
            ? null
            : { status: (payload as { key: string }).key === 'HeartbeatInterval' ? 'Rejected' : 'NotSupported' };
        const change = (key: string) =>
          t.call('machines', 'changeConfiguration', { id: machine.id, key, value: 'x' }, asSupport);
        expect((await change('HeartbeatInterval')).body).toMatchObject({
          status: 'Rejected',
          event: { code: 'MP_0011', message: 'Sam Support set HeartbeatInterval to "x": rejected' },
        });
        expect((await change('Colour')).body.status).toBe('NotSupported');
        const reset = await t.call('machines', 'resetLocker', { id: machine.id, type: 'Hard' }, asSupport);
        expect(reset.body).toMatchObject({ status: 'NotSupported', event: { code: 'MP_0012', level: 'info' } });
      });
    });

    it('refuses an offline locker, an archived machine and an unknown one, and records nothing', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const offline = await t.call('machines', 'resetLocker', { id: m.id, type: 'Soft' }, asSupport);
      expect(offline.status).toBe(409);
      expect(offline.body.error.message).toBe('The locker is offline: it cannot be reached now');
      // Marked online but held by no process (its connection died unnoticed): offline too.
      await t.db.updateTable('machines').set({ online: true }).where('id', '=', m.id).execute();
      const unreached = await t.call('machines', 'triggerStatus', { id: m.id, requested: 'Heartbeat' }, asSupport);
      expect(unreached.status).toBe(409);
      expect(unreached.body.error.message).toBe('The locker is offline: it cannot be reached now');
      await t.call('machines', 'toggleArchive', { id: m.id }, asSupport);
      const archived = await t.call('machines', 'triggerStatus', { id: m.id, requested: 'Heartbeat' }, asSupport);
      expect(archived.status).toBe(409);
      expect(archived.body.error.message).toBe('An archived machine has no locker to reach');
      expect((await t.call('machines', 'resetLocker', { id: 'nope', type: 'Soft' }, asSupport)).status).toBe(404);
      const events = await t.db.selectFrom('machine_events').select('code').where('code', 'like', 'MP_001%').execute();
      expect(events).toEqual([]);
    });

    it('answers 503 when the locker says nothing in time, and records the command with no answer', async () => {
      await withBootedLocker(t, async ({ locker, machine }) => {
        locker.autoAnswer = false;
        const res = await t.call('machines', 'resetLocker', { id: machine.id, type: 'Soft' }, asSupport);
        expect(res.status).toBe(503);
        expect(res.body.error.message).toBe('The locker did not answer within 30 seconds');
        const event = await t.db
          .selectFrom('machine_events')
          .selectAll()
          .where('code', '=', 'MP_0012')
          .executeTakeFirst();
        expect(event?.message).toBe('Sam Support restarted the locker (Soft): no answer');
      });
    });

    it('lets only support change a configuration or restart; pharmacy users without the machine are refused', async () => {
      await withBootedLocker(t, async ({ machine }) => {
        const pharmacy = { cookie: 'session=pharmacy' };
        // A machine outside the user's businesses is not found; the support-only commands are forbidden outright.
        for (const [method, input, status] of [
          ['triggerStatus', { id: machine.id, requested: 'Heartbeat' }, 404],
          ['changeConfiguration', { id: machine.id, key: 'HeartbeatInterval', value: '30' }, 403],
          ['resetLocker', { id: machine.id, type: 'Soft' }, 403],
        ] as const) {
          expect((await t.call('machines', method, input as never, pharmacy)).status).toBe(status);
        }
        expect(
          await t.db.selectFrom('machine_events').select('code').where('code', 'like', 'MP_001%').execute(),
        ).toEqual([]);
      });
    });

    it('reaches a locker connected to another api process and brings its answer back', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const hub = createApp(t.deps).listen({ port: 0, hostname: '127.0.0.1' });
      // A second process: its own app and LiveHub on the same bus.
      const other = createApp({ ...t.deps, live: new LiveHub(bus(), t.deps.logger, { answerWaitMs: 400 }) });
      const locker = await TestLocker.connect(`ws://127.0.0.1:${hub.server?.port}`, m.token);
      try {
        await locker.boot();
        locker.reply = () => ({ status: 'Accepted' });
        const res = await other.handle(
          new Request(`${TEST_ORIGIN}/api/machines/changeConfiguration`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, cookie: 'session=support' },
            body: JSON.stringify({ id: m.id, key: 'HeartbeatInterval', value: '30' }),
          }),
        );
        expect(res.status).toBe(200);
        expect((await res.json()).status).toBe('Accepted');
        expect((await locker.waitForHubCall('ChangeConfiguration'))[3]).toEqual({
          key: 'HeartbeatInterval',
          value: '30',
        });
      } finally {
        locker.close();
        hub.stop(true);
      }
    });
  },
  (base) => ({ ...withTestAuth(), live: new LiveHub(bus(), base.logger, { answerWaitMs: 400 }) }),
);
