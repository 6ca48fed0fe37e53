import { expect, it } from 'bun:test';
import { seedDemo } from '@medlocker/db';
import { stubOrderPin } from '@medlocker/db/testing';
import { describeApi, T0 } from '../../testing/api.ts';
import { asSupport, withTestAuth } from '../../testing/hub.ts';
import { startDemoFleet } from './fleet.ts';
import { sweepOffline } from './presence.ts';

const MINUTE = 60_000;

describeApi(
  'demo fleet',
  (t) => {
    const seed = () =>
      seedDemo(t.db, { adminEmail: 'admin@medlocker.test', adminPasswordHash: 'x', now: T0, orderPin: stubOrderPin });
    const onlineNames = async () =>
      (await t.call('machines', 'fleetSummary', {}, asSupport)).body.machines
        .filter((m) => m.online)
        .map((m) => m.name)
        .sort();

    it('keeps the demo lockers online and reporting readings long after start, while it runs', async () => {
      await seed();
      const seededOnline = await onlineNames();
      expect(seededOnline.length).toBeGreaterThan(0);
      const readingsBefore = await t.db.selectFrom('temperature_readings').select('machine_id').execute();
      // A machine someone adds is never reported for.
      const business = await t.db
        .selectFrom('businesses')
        .select('id')
        .where('archived_at', 'is', null)
        .executeTakeFirstOrThrow();
      await t.call(
        'machines',
        'createMachine',
        { businessId: business.id, name: 'Added today', numberOfSlots: 4 },
        asSupport,
      );

      const fleet = startDemoFleet(t.deps, 3_600_000);
      try {
        // An hour of the hub sweeping every minute while the fleet reports every half minute.
        for (let m = 0; m < 60; m++) {
          t.advance(MINUTE / 2);
          await fleet.tick();
          t.advance(MINUTE / 2);
          expect(await sweepOffline(t.deps, 60)).toEqual([]);
        }
        expect(await onlineNames()).toEqual(seededOnline);
        const readingsAfter = await t.db.selectFrom('temperature_readings').select('machine_id').execute();
        // For each reporting locker, none for the added machine: one at start (the seed's last is 15
        // minutes old), then one every 15 minutes of the hour (15.5, 30.5 and 45.5 minutes in).
        expect(readingsAfter.length - readingsBefore.length).toBe(4 * seededOnline.length);
      } finally {
        await fleet.stop();
      }
    });

    it('lets the demo lockers go offline when the fleet is off, as DEMO_FLEET=0 asks', async () => {
      await seed();
      expect((await onlineNames()).length).toBeGreaterThan(0);
      t.advance(10 * MINUTE);
      expect((await sweepOffline(t.deps, 60)).length).toBeGreaterThan(0);
      expect(await onlineNames()).toEqual([]);
    });

    it('brings demo lockers left offline by an earlier run back online as the server starts', async () => {
      await seed();
      const seededOnline = await onlineNames();
      t.advance(10 * MINUTE);
      await sweepOffline(t.deps, 60);
      const fleet = startDemoFleet(t.deps, 3_600_000);
      await fleet.stop();
      expect(await onlineNames()).toEqual(seededOnline);
    });
  },
  withTestAuth,
);
