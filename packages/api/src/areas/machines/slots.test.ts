import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import { asSupport, listen, seedBusiness, TestLocker, withTestAuth } from '../../testing/hub.ts';

describeApi(
  'the slots a locker reports',
  (t) => {
    it('flags a locker reporting another number of slots than its machine was set up with, once per number', async () => {
      await seedBusiness(t.db);
      const created = await t.call(
        'testMachines',
        'create',
        { businessId: 'b1', name: 'Thirty', numberOfSlots: 30 },
        asSupport,
      );
      const tm = created.body.testMachine;
      const get = async () => (await t.call('machines', 'getMachine', { id: tm.id }, asSupport)).body;
      const mismatches = async () =>
        (await t.db.selectFrom('machine_events').selectAll().where('code', '=', 'MP_0009').execute()).map((e) => [
          e.level,
          e.message,
        ]);
      expect(await get()).toMatchObject({ test: true, reportedSlots: null });
      const hub = listen(t);
      try {
        const locker = await TestLocker.connect(hub.url, tm.credentials.accessToken);
        await locker.boot();
        const status = (observations: Record<string, unknown>) => locker.call('StatusNotification', { observations });
        await status({ doorOpen: false, slotsTotal: 24, slotsFree: 24 });
        expect(await get()).toMatchObject({ reportedSlots: 24, machine: { numberOfSlots: 30 } });
        expect(await mismatches()).toEqual([['warn', 'The locker reports 24 slots; the machine is set up with 30']]);
        // Said again (every boot, every change of what it observes): no second event.
        await status({ doorOpen: true, slotsTotal: 24, slotsFree: 23 });
        // Not a number of slots: ignored.
        await status({ slotsTotal: 'many' });
        expect(await mismatches()).toHaveLength(1);
        expect((await get()).reportedSlots).toBe(24);
        // The locker now reports what the machine has: kept, and nothing to flag.
        await status({ slotsTotal: 30 });
        expect((await get()).reportedSlots).toBe(30);
        expect(await mismatches()).toHaveLength(1);
        locker.close();
      } finally {
        hub.stop();
      }
    });
  },
  withTestAuth,
);
