import { expect, it } from 'bun:test';
import { ACTIVE_ALARM_MS, fleetAlarmsPerMachine, fleetPageSize, type Level } from '@medlocker/core';
import { describeApi, type TestApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../../testing/hub.ts';

describeApi(
  'machines fleetSummary',
  (t) => {
    const createMachine = async (businessId: string, name: string) => {
      const res = await t.call('machines', 'createMachine', { businessId, name, numberOfSlots: 10 }, asSupport);
      return res.body.machine.id as string;
    };
    const summary = (nextToken?: string | null) => t.call('machines', 'fleetSummary', { nextToken }, asSupport);

    it('lists the active machines of active businesses with their business name, state and temperature', async () => {
      await seedBusiness(t.db, 'b1', { name: 'High Street Pharmacy' });
      await seedBusiness(t.db, 'b2');
      const front = await createMachine('b1', 'Front');
      const gone = await createMachine('b1', 'Gone');
      const closed = await createMachine('b2', 'Closed shop');
      await t.call('machines', 'toggleArchive', { id: gone }, asSupport);
      await t.call('machines', 'toggleOutOfOrderStatus', { id: front }, asSupport);
      await t.db.updateTable('businesses').set({ archived_at: t.deps.now() }).where('id', '=', 'b2').execute();
      await t.call('testMachines', 'create', { businessId: 'b1', name: 'Test rig', numberOfSlots: 4 }, asSupport);
      await t.db
        .updateTable('machines')
        .set({ online: true, last_seen: t.deps.now(), temperature_average: 27.5, temperature_updated: t.deps.now() })
        .where('id', '=', front)
        .execute();

      const res = await summary();
      expect(res.status).toBe(200);
      expect(res.body.nextToken).toBeNull();
      expect(res.body.machines).toEqual([
        {
          id: front,
          businessId: 'b1',
          businessName: 'High Street Pharmacy',
          name: 'Front',
          online: true,
          lastSeen: t.deps.now(),
          outOfOrderStatus: { at: t.deps.now(), userId: 'u-support', userDisplayName: 'Sam Support' },
          temperatureStatus: { average: 27.5, lastExcursionAt: null, updated: t.deps.now(), readings: [] },
        },
      ]);
      expect(res.body.machines.map((m) => m.id)).not.toContain(closed);
    });

    it('pages through a large fleet without repeating or skipping a machine', async () => {
      await seedBusiness(t.db);
      const total = fleetPageSize + 7;
      const ids = await seedMachines(t, 'b1', total);
      const seen: string[] = [];
      let token: string | null = null;
      let pages = 0;
      do {
        const res = await summary(token);
        expect(res.status).toBe(200);
        seen.push(...res.body.machines.map((m) => m.id));
        token = res.body.nextToken;
        pages++;
      } while (token);
      expect(pages).toBe(2);
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
      expect(seen.toSorted()).toEqual(ids.toSorted());
    });

    it('counts alarms of the last day: alarm codes, critical and error, not older ones or routine events', async () => {
      await seedBusiness(t.db);
      const m1 = await createMachine('b1', 'Locker 1');
      const m2 = await createMachine('b1', 'Locker 2');
      const now = t.deps.now();
      const hour = 60 * 60 * 1000;
      await seedEvents(t, [
        { id: 'e-power', machineId: m1, code: 'EM_0003', level: 'critical', created: now - hour },
        // EM_0001 is only a warning, but it has an alarm message template.
        { id: 'e-unclaimed', machineId: m2, code: 'EM_0001', level: 'warn', created: now - 2 * hour },
        { id: 'e-actuator', machineId: m2, code: 'EM_0008', level: 'error', created: now - ACTIVE_ALARM_MS },
        { id: 'e-old', machineId: m1, code: 'EM_0016', level: 'critical', created: now - ACTIVE_ALARM_MS - 1 },
        { id: 'e-scan', machineId: m1, code: 'EM_0017', level: 'info', created: now - hour },
        { id: 'e-barcode', machineId: m2, code: 'EM_0022', level: 'warn', created: now - hour },
      ]);
      const res = await summary();
      expect(res.body.alarms.map((a) => a.id)).toEqual(['e-power', 'e-unclaimed', 'e-actuator']);
      expect(res.body.alarms[0]).toMatchObject({ businessId: 'b1', machineId: m1, code: 'EM_0003', level: 'critical' });
    });

    it('leaves out alarms of archived machines and keeps the newest few of a chattering one', async () => {
      await seedBusiness(t.db);
      const noisy = await createMachine('b1', 'Noisy');
      const gone = await createMachine('b1', 'Gone');
      const now = t.deps.now();
      await seedEvents(t, [
        ...Array.from({ length: fleetAlarmsPerMachine + 5 }, (_, i) => ({
          id: `e-${String(i).padStart(3, '0')}`,
          machineId: noisy,
          code: 'EM_0003',
          level: 'critical' as const,
          created: now - 1000 * i,
        })),
        { id: 'e-gone', machineId: gone, code: 'EM_0003', level: 'critical', created: now },
      ]);
      await t.call('machines', 'toggleArchive', { id: gone }, asSupport);
      const res = await summary();
      expect(res.body.alarms).toHaveLength(fleetAlarmsPerMachine);
      expect(res.body.alarms[0]?.id).toBe('e-000');
      expect(res.body.alarms.map((a) => a.machineId)).not.toContain(gone);
    });

    it("leaves out a temperature excursion's alarm once its machine is back in the band, as the dashboard does", async () => {
      await seedBusiness(t.db);
      const hot = await createMachine('b1', 'Hot');
      const cooled = await createMachine('b1', 'Cooled');
      const now = t.deps.now();
      const started = now - 30 * 60_000;
      for (const [id, average] of [
        [hot, 27.5],
        [cooled, 21.0],
      ] as const) {
        await t.db
          .updateTable('machines')
          .set({ temperature_average: average, temperature_updated: now, temperature_last_excursion_at: started })
          .where('id', '=', id)
          .execute();
      }
      await seedEvents(t, [
        { id: 'e-hot', machineId: hot, code: 'MP_0001', level: 'error', created: started },
        { id: 'e-cooled', machineId: cooled, code: 'MP_0001', level: 'error', created: started },
        { id: 'e-power', machineId: cooled, code: 'EM_0003', level: 'critical', created: started },
      ]);
      const res = await summary();
      expect(res.body.alarms.map((a) => a.id).sort()).toEqual(['e-hot', 'e-power']);
    });

    it('refuses a forged page token', async () => {
      const res = await summary('not a token');
      expect(res.status).toBe(400);
      expect(res.body.error.details?.[0]).toMatchObject({ path: 'nextToken' });
    });

    it('is for support staff only', async () => {
      expect((await t.call('machines', 'fleetSummary', {})).status).toBe(401);
      expect((await t.call('machines', 'fleetSummary', {}, { cookie: 'session=pharmacy' })).status).toBe(403);
    });
  },
  withTestAuth,
);

/** `count` machines of a business in one statement; their ids, which sort as they were made. */
async function seedMachines(t: TestApi, businessId: string, count: number): Promise<string[]> {
  const now = t.deps.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: Bun.randomUUIDv7(),
    business_id: businessId,
    name: `Locker ${i}`,
    number_of_slots: 10,
    created: now,
    updated: now,
  }));
  await t.db.insertInto('machines').values(rows).execute();
  return rows.map((r) => r.id);
}

async function seedEvents(
  t: TestApi,
  events: { id: string; machineId: string; code: string; level: Level; created: number }[],
): Promise<void> {
  await t.db
    .insertInto('machine_events')
    .values(
      events.map((e) => ({
        id: e.id,
        business_id: 'b1',
        machine_id: e.machineId,
        code: e.code,
        level: e.level,
        message: e.code,
        created: e.created,
      })),
    )
    .execute();
}
