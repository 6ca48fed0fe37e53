import { expect, it } from 'bun:test';
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
