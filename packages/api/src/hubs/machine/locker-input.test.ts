import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import { withBootedLocker, withTestAuth } from '../../testing/hub.ts';

/**
 * What a locker sends that the hub cannot store is refused as the locker's mistake, never answered
 * InternalError: that answer means "send it again later", and the locker would, forever.
 */
describeApi(
  'locker input the hub cannot store',
  (t) => {
    it('refuses times and sequence numbers beyond what the database holds, storing nothing', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const now = t.deps.now();
        const answers = [
          await locker.call('MachineEvent', { eventId: 'e1', seq: 1e308, created: now, code: 'EM_0017' }),
          await locker.call('BagLoaded', { eventId: 'e2', seq: 1, created: 1e308, barcode: 'RX-1', location: 'A1' }),
          await locker.call('TemperatureReadings', {
            eventId: 'e3',
            seq: 2,
            created: now,
            readings: [{ created: 1e308, value: 20 }],
          }),
          await locker.call('StatusNotification', { observations: { doorOpen: false }, created: 1e308 }),
        ];
        expect(answers.map((a) => a[2])).toEqual(Array(4).fill('TypeConstraintViolation'));
        expect(await t.db.selectFrom('locker_event_receipts').select('locker_event_id').execute()).toEqual([]);
        expect(await t.db.selectFrom('bags').select('id').execute()).toEqual([]);
        expect(await t.db.selectFrom('temperature_readings').select('created').execute()).toEqual([]);
        expect((await locker.call('Heartbeat', {}))[0]).toBe(3);
      });
    });

    it('refuses an unpaired surrogate as FormationViolation, storing nothing and keeping the connection', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const lone = 'Text cannot contain an unpaired surrogate (\\uD800 to \\uDFFF)';
        // Observations and event data are jsonb, where PostgreSQL refuses the surrogate: InternalError.
        const status = await locker.raw('[2,"s1","StatusNotification",{"observations":{"door":"\\ud800"}}]', 's1');
        const event = await locker.raw(
          '[2,"s2","MachineEvent",{"eventId":"e1","seq":1,"created":1,"code":"EM_0017","data":{"k":"\\udc00"}}]',
          's2',
        );
        expect([status.slice(0, 4), event.slice(0, 4)]).toEqual([
          [4, 's1', 'FormationViolation', lone],
          [4, 's2', 'FormationViolation', lone],
        ]);
        expect(await t.db.selectFrom('machine_events').select('id').where('code', '=', 'EM_0017').execute()).toEqual(
          [],
        );
        expect((await locker.call('Heartbeat', {}))[0]).toBe(3);
      });
    });

    it('answers a frame nested too deep to walk with FormationViolation instead of never answering', async () => {
      await withBootedLocker(t, async ({ locker }) => {
        const deep = `[2,"d1","StatusNotification",{"observations":{"x":${'['.repeat(30_000)}${']'.repeat(30_000)}}}]`;
        expect((await locker.raw(deep, 'd1')).slice(0, 4)).toEqual([
          4,
          'd1',
          'FormationViolation',
          'JSON cannot be nested more than 32 levels deep',
        ]);
        expect((await locker.call('Heartbeat', {}))[0]).toBe(3);
      });
    });
  },
  withTestAuth,
);
