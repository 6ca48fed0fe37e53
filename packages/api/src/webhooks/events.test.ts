import { expect, it } from 'bun:test';
import { requireEditableBusiness } from '../areas/business-settings/service.ts';
import { updateClient } from '../areas/integration/repository.ts';
import { asSupport, seedBusiness, withTestAuth } from '../hubs/test-kit.ts';
import { describeApi } from '../testing.ts';
import { eventBody, recordEvent } from './events.ts';
import { DISPATCH_JOB } from './repository.ts';

describeApi(
  'integration events',
  (t) => {
    const client = (webhookUrl: string | null) =>
      t.call(
        'integration',
        'createOrUpdateIntegrationClient',
        {
          businessId: 'b1',
          name: 'Example PMR',
          contactEmail: 'support@pmr.example',
          suppressPatientMessages: false,
          webhookUrl,
          rateLimit: 1200,
        },
        asSupport,
      );
    const event = (orderingKey = 'o1') => ({
      businessId: 'b1',
      type: 'order.created' as const,
      orderingKey,
      data: { id: orderingKey },
    });

    it('stores nothing for a business without an integration client', async () => {
      await seedBusiness(t.db);
      expect(await recordEvent(t.db, event(), 1_000)).toBeNull();
      expect(await t.db.selectFrom('integration_events').selectAll().execute()).toEqual([]);
    });

    it('numbers a business’s events in order and queues one delivery per event and one dispatch job', async () => {
      await seedBusiness(t.db);
      await client('https://pmr.example/hooks');
      const first = await recordEvent(t.db, event('o1'), 1_000);
      const second = await t.db.transaction().execute((tx) => recordEvent(tx, event('o2'), 2_000));
      expect(first?.sequence).toBe(1);
      expect(second?.sequence).toBe(2);
      expect(first?.delivered).toBe(true);
      const deliveries = await t.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
      expect(deliveries.map((d) => [d.id, d.status, d.ordering_key])).toEqual([
        [first?.eventId ?? null, 'pending', 'o1'],
        [second?.eventId ?? null, 'pending', 'o2'],
      ]);
      const jobs = await t.db.selectFrom('jobs').selectAll().where('type', '=', DISPATCH_JOB).execute();
      expect(jobs.length).toBe(1);
      expect(Number(jobs[0]?.run_after)).toBe(1_000);
      const row = await t.db
        .selectFrom('integration_events')
        .selectAll()
        .where('seq', '=', 2)
        .executeTakeFirstOrThrow();
      expect(eventBody(row)).toEqual({
        id: second?.eventId ?? '',
        sequence: 2,
        type: 'order.created',
        timestamp: new Date(2_000).toISOString(),
        data: { id: 'o2' },
      });
    });

    it('never deadlocks with a staff change of the client: the business’s row before the client’s, in both', async () => {
      await seedBusiness(t.db);
      const clientId = (await client('https://pmr.example/hooks')).body.client.id as string;
      let locked = () => {};
      const hasLock = new Promise<void>((resolve) => {
        locked = resolve;
      });
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      // A staff change of the client (generateClientSecret, createOrUpdateIntegrationClient): the
      // business locked against an archive, then the client's row.
      const staff = t.db.transaction().execute(async (tx) => {
        await requireEditableBusiness(tx, 'b1');
        locked();
        await released;
        await updateClient(tx, clientId, { updated: 5_000 });
      });
      await hasLock;
      // Meanwhile a flow records an event (and queues the dispatch job, whose row refers to the business).
      const flow = t.db.transaction().execute((tx) => recordEvent(tx, event(), 1_000));
      await Bun.sleep(300);
      release();
      const [staffDone, flowDone] = await Promise.allSettled([staff, flow]);
      expect(staffDone.status).toBe('fulfilled');
      expect(flowDone).toMatchObject({ status: 'fulfilled', value: { sequence: 1, delivered: true } });
    });

    it('stores the event but no delivery when the client has no webhook URL', async () => {
      await seedBusiness(t.db);
      await client(null);
      const stored = await recordEvent(t.db, event(), 1_000);
      expect(stored?.delivered).toBe(false);
      expect(await t.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
      expect(await t.db.selectFrom('jobs').selectAll().where('type', '=', DISPATCH_JOB).execute()).toEqual([]);
    });
  },
  withTestAuth,
);
