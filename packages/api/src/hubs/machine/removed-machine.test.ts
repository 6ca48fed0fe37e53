import { expect, it } from 'bun:test';
import { MachineGone } from '../../areas/machines/index.ts';
import { deleteTestMachine } from '../../areas/test-machines/repository.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, fastHub, listen, seedBusiness, TestLocker, testMachine, withTestAuth } from '../../testing/hub.ts';
import { ReadingsBatcher } from './readings.ts';

describeApi(
  'a machine removed while its locker is connected',
  (t) => {
    const identity = async (machineId: string) => {
      const row = await t.db.selectFrom('machines').selectAll().where('id', '=', machineId).executeTakeFirstOrThrow();
      return { machineId, businessId: row.business_id, credentialId: 'c', expiresAt: Infinity, isTest: true };
    };

    it('hangs up on the locker of a removed test machine with 4001, and its token no longer connects', async () => {
      await seedBusiness(t.db);
      const m = await testMachine(t);
      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, m.token);
        await locker.boot();
        expect((await t.call('testMachines', 'remove', { id: m.id }, asSupport)).status).toBe(200);
        expect(await locker.closed).toBe(4001);
        await expect(TestLocker.connect(hub.url, m.token)).rejects.toThrow();
      } finally {
        hub.stop();
      }
    });

    it("answers a removed machine's readings and events with InternalError, then closes with 4001", async () => {
      await seedBusiness(t.db);
      const hub = listen(t);
      try {
        const calls = [
          ['TemperatureReadings', { readings: [{ created: t.deps.now() - 1000, value: 20 }] }],
          ['MachineEvent', { code: 'EM_0003', level: 'critical' }],
        ] as const;
        for (const [i, [action, payload]] of calls.entries()) {
          const m = await testMachine(t, 'b1', `Locker ${i}`);
          const locker = await TestLocker.connect(hub.url, m.token);
          await locker.boot();
          // Removed behind the hub's back: no disconnect command reaches the locker first.
          await t.db.transaction().execute((tx) => deleteTestMachine(tx, m.id));
          const answer = await locker.call(action, { eventId: `e${i}`, seq: 1, created: t.deps.now(), ...payload });
          expect(answer[0]).toBe(4);
          expect(answer[2]).toBe('InternalError');
          expect(answer[3]).toBe('This machine no longer exists; pair the locker again');
          expect(await locker.closed).toBe(4001);
        }
        expect(await t.db.selectFrom('temperature_readings').select('value').execute()).toEqual([]);
      } finally {
        hub.stop();
      }
    });

    it("fails only the removed machine's readings: the others in the same batch are stored", async () => {
      await seedBusiness(t.db);
      const kept = await testMachine(t, 'b1', 'Kept');
      const removed = await testMachine(t, 'b1', 'Removed');
      const [keptWho, removedWho] = [await identity(kept.id), await identity(removed.id)];
      await t.db.transaction().execute((tx) => deleteTestMachine(tx, removed.id));
      const batcher = new ReadingsBatcher(t.deps, { ...fastHub.batch, concurrentFlushes: 1 });
      const at = t.deps.now() - 1000;
      // Added in the same turn of the event loop: one batch, one statement.
      const [a, b] = await Promise.allSettled([
        batcher.add(keptWho, 'k1', 1, [{ created: at, value: 19 }]),
        batcher.add(removedWho, 'r1', 1, [{ created: at, value: 30 }]),
      ]);
      expect(a).toEqual({ status: 'fulfilled', value: { stored: 1, duplicate: false } });
      expect(b.status).toBe('rejected');
      expect((b as PromiseRejectedResult).reason).toBeInstanceOf(MachineGone);
      const rows = await t.db.selectFrom('temperature_readings').select(['machine_id', 'value']).execute();
      expect(rows).toEqual([{ machine_id: kept.id, value: 19 }]);
    });
  },
  withTestAuth,
);
