import { expect, it } from 'bun:test';
import { listAudit } from '../../audit/audit.ts';
import { type LiveMessage, liveOf } from '../../live/live.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../../testing/hub.ts';

describeApi(
  'machines',
  (t) => {
    const create = (input: Record<string, unknown>) =>
      t.call('machines', 'createMachine', { businessId: 'b1', ...input }, asSupport);

    it('adds a machine and lists it by name prefix', async () => {
      await seedBusiness(t.db);
      const res = await create({ name: 'Front Locker', numberOfSlots: 24 });
      expect(res.status).toBe(200);
      expect(res.body.machine).toMatchObject({ name: 'Front Locker', numberOfSlots: 24, archived: null });
      await create({ name: 'Back Locker', numberOfSlots: 8 });
      const list = await t.call('machines', 'listMachines', { businessId: 'b1', filter: 'fro' }, asSupport);
      expect(list.body.machines.map((m) => m.name)).toEqual(['Front Locker']);
      expect((await listAudit(t.db, 'machine.create')).length).toBe(2);
    });

    it("pushes a machine newly in the fleet (added, unarchived) with its business's name, and only then", async () => {
      await seedBusiness(t.db);
      const pushes: LiveMessage[] = [];
      const stop = liveOf(t.deps).onConsoleEvent((e) => pushes.push(e.message));
      try {
        const { body } = await create({ name: 'Front Locker', numberOfSlots: 24 });
        const id = body.machine.id;
        await t.call('testMachines', 'create', { businessId: 'b1', name: 'QA 1', numberOfSlots: 6 }, asSupport);
        await t.call('machines', 'toggleArchive', { id }, asSupport);
        await t.call('machines', 'toggleArchive', { id }, asSupport);
        await Bun.sleep(0);
        const named = pushes.filter((m) => 'businessName' in m.params) as {
          action: string;
          params: Record<string, unknown>;
        }[];
        expect(named.map((m) => [m.action, (m.params.machine as { id: string }).id, m.params.businessName])).toEqual([
          ['statusUpdate', id, 'Pharmacy b1'],
          ['unarchived', id, 'Pharmacy b1'],
        ]);
        expect(named[0]?.params).toMatchObject({ online: false, lastSeen: null });
      } finally {
        stop();
      }
    });

    it('refuses a machine name that differs only in case', async () => {
      await seedBusiness(t.db);
      await seedBusiness(t.db, 'b2');
      await create({ name: 'Locker 1', numberOfSlots: 10 });
      const clash = await create({ name: 'LOCKER 1', numberOfSlots: 10 });
      expect(clash.status).toBe(409);
      expect(clash.body.error.message).toBe('A machine with that name already exists for this business');
      const elsewhere = await t.call(
        'machines',
        'createMachine',
        { businessId: 'b2', name: 'locker 1', numberOfSlots: 3 },
        asSupport,
      );
      expect(elsewhere.status).toBe(200);
    });

    it('requires a name and a positive whole number of slots', async () => {
      await seedBusiness(t.db);
      const noName = await create({ name: '  ', numberOfSlots: 4 });
      expect(noName.status).toBe(400);
      expect(noName.body.error.details?.[0]).toMatchObject({ path: 'name' });
      for (const numberOfSlots of [0, -2, 1.5, 'x']) {
        const bad = await create({ name: 'L', numberOfSlots });
        expect(bad.status).toBe(400);
        expect(bad.body.error.details?.[0]).toMatchObject({
          path: 'numberOfSlots',
          message: 'Please enter a positive whole number',
        });
      }
      expect((await create({ name: 'L' })).status).toBe(400);
    });

    it('refuses names over 100 characters, and over-long searches, with the SPEC §5 length message', async () => {
      await seedBusiness(t.db);
      const tooLong = { path: 'name', id: 'INVALID_LENGTH', message: 'Value must be at most 100 characters long' };
      const machine = await create({ name: 'x'.repeat(101), numberOfSlots: 4 });
      expect([machine.status, machine.body.error.details]).toEqual([400, [tooLong]]);
      const test = await t.call(
        'testMachines',
        'create',
        { businessId: 'b1', name: 'x'.repeat(101), numberOfSlots: 4 },
        asSupport,
      );
      expect([test.status, test.body.error.details]).toEqual([400, [tooLong]]);
      const { body } = await create({ name: 'x'.repeat(100), numberOfSlots: 4 });
      const edit = await t.call(
        'machines',
        'updateMachine',
        { id: body.machine.id, name: 'y'.repeat(101), numberOfSlots: 4 },
        asSupport,
      );
      expect(edit.body.error.details).toEqual([tooLong]);
      const search = await t.call('machines', 'listMachines', { businessId: 'b1', filter: 'x'.repeat(201) }, asSupport);
      expect(search.body.error.details).toEqual([
        { path: 'filter', id: 'INVALID_LENGTH', message: 'Value must be at most 200 characters long' },
      ]);
      const code = await t.call(
        'machines',
        'listEvents',
        { machineId: body.machine.id, code: 'E'.repeat(17) },
        asSupport,
      );
      expect(code.body.error.details).toEqual([
        { path: 'code', id: 'INVALID_LENGTH', message: 'Value must be at most 16 characters long' },
      ]);
      const contents = await t.call('bags', 'listBags', { businessId: 'b1', filter: 'B'.repeat(129) }, asSupport);
      expect(contents.body.error.details).toEqual([
        { path: 'filter', id: 'INVALID_LENGTH', message: 'Value must be at most 128 characters long' },
      ]);
    });

    it('cannot edit or pair an archived machine, and archiving emits MP_0004 then MP_0005', async () => {
      await seedBusiness(t.db);
      const { body } = await create({ name: 'Locker 1', numberOfSlots: 10 });
      const id = body.machine.id;
      const archived = await t.call('machines', 'toggleArchive', { id }, asSupport);
      expect(archived.body.machine.archived).toMatchObject({ userId: 'u-support', userDisplayName: 'Sam Support' });
      const edit = await t.call('machines', 'updateMachine', { id, name: 'New', numberOfSlots: 3 }, asSupport);
      expect(edit.status).toBe(409);
      const pair = await t.call(
        'auth' as never,
        'activateDeviceAuth' as never,
        { machineId: id, userCode: 'BCDF-GHJK' },
        asSupport,
      );
      expect(pair.status).toBe(409);
      await t.call('machines', 'toggleArchive', { id }, asSupport);
      const events = await t.call('machines', 'listEvents', { machineId: id }, asSupport);
      expect(events.body.events.map((e) => e.code)).toEqual(['MP_0005', 'MP_0004']);
    });

    it('records who switched a machine out of order, and back', async () => {
      await seedBusiness(t.db);
      const { body } = await create({ name: 'Locker 1', numberOfSlots: 10 });
      const out = await t.call('machines', 'toggleOutOfOrderStatus', { id: body.machine.id }, asSupport);
      expect(out.body.machine.outOfOrderStatus).toEqual({
        at: t.deps.now(),
        userId: 'u-support',
        userDisplayName: 'Sam Support',
      });
      const available = await t.call('machines', 'isMachineAvailable', { id: body.machine.id }, asSupport);
      expect(available.body).toEqual({ available: false, reason: 'outOfOrder' });
      const back = await t.call('machines', 'toggleOutOfOrderStatus', { id: body.machine.id }, asSupport);
      expect(back.body.machine.outOfOrderStatus).toBeNull();
      const events = await t.call('machines', 'listEvents', { machineId: body.machine.id }, asSupport);
      expect(events.body.events.map((e) => e.code)).toEqual(['MP_0002', 'MP_0003']);
    });

    it("charts the whole 3-hour window of the average, keeping each stretch's lowest and highest reading", async () => {
      await seedBusiness(t.db);
      const now = t.deps.now();
      const hours3 = 3 * 3600_000;
      const machineWith = async (name: string, readings: { created: number; value: number }[]) => {
        const { body } = await create({ name, numberOfSlots: 4 });
        const id = body.machine.id;
        await t.db
          .updateTable('machines')
          .set({ temperature_average: 20, temperature_updated: now })
          .where('id', '=', id)
          .execute();
        for (let i = 0; i < readings.length; i += 1000) {
          await t.db
            .insertInto('temperature_readings')
            .values(
              readings
                .slice(i, i + 1000)
                .map((r) => ({ business_id: 'b1', machine_id: id, locker_event_id: null, ...r })),
            )
            .execute();
        }
        const got = await t.call('machines', 'getMachine', { id }, asSupport);
        return got.body.machine.temperatureStatus?.readings ?? [];
      };
      const outside = [
        { created: now - hours3, value: 40 },
        { created: now + 1000, value: 40 },
      ];

      // A reading every 10 seconds: 1,080 in the window, every one of them charted, the oldest too.
      const everyTen = Array.from({ length: 1080 }, (_, i) => ({
        created: now - i * 10_000,
        value: i === 1070 ? 30 : 20,
      }));
      const ten = await machineWith('Every ten seconds', [...everyTen, ...outside]);
      expect(ten).toHaveLength(1080);
      expect(ten[0]).toEqual({ created: now - 1079 * 10_000, value: 20 });
      expect(ten.find((r) => r.value === 30)?.created).toBe(now - 1070 * 10_000);
      expect(ten.at(-1)?.created).toBe(now);

      // A reading every second: 10,800, thinned to at most 1,440 points that still span the window and
      // show the one reading too hot and the one too cold.
      const everySecond = Array.from({ length: 10_800 }, (_, i) => ({
        created: now - i * 1000,
        value: i === 10_750 ? 31 : i === 5_001 ? 9 : 20 + (i % 3) / 10,
      }));
      const second = await machineWith('Every second', [...everySecond, ...outside]);
      expect(second.length).toBeLessThanOrEqual(1440);
      expect(second[0]?.created).toBeLessThan(now - hours3 + 15_000);
      expect(second.at(-1)?.created).toBeGreaterThan(now - 15_000);
      expect(second.filter((r) => r.value === 31).map((r) => r.created)).toEqual([now - 10_750_000]);
      expect(second.filter((r) => r.value === 9).map((r) => r.created)).toEqual([now - 5_001_000]);
      expect(second.map((r) => r.created)).toEqual([...second.map((r) => r.created)].sort((a, b) => a - b));
      expect(second.every((r) => r.value !== 40)).toBe(true);
    });

    it('is for staff who reach the business: a pharmacy user of another business is answered not found', async () => {
      await seedBusiness(t.db);
      expect((await t.call('machines', 'listMachines', { businessId: 'b1' })).status).toBe(401);
      const pharmacy = await t.call('machines', 'listMachines', { businessId: 'b1' }, { cookie: 'session=pharmacy' });
      expect(pharmacy.status).toBe(404);
    });
  },
  withTestAuth,
);
