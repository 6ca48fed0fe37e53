import { expect, it } from 'bun:test';
import { describeApi } from '../../testing/api.ts';
import { seedBusiness, withTestAuth } from '../../testing/hub.ts';
import { saveTestIntegrationClient } from '../../testing/webhooks.ts';
import { eventBody, recordEvent } from './events.ts';
import { DISPATCH_JOB, recordAttempts } from './repository.ts';

describeApi(
  'integration events',
  (t) => {
    const client = (webhookUrl: string | null) => saveTestIntegrationClient(t, webhookUrl);
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

    it('a late second record of a delivered webhook (a batch sent twice) lists its attempt but leaves it delivered', async () => {
      await seedBusiness(t.db);
      await client('https://pmr.example/hooks');
      const stored = await recordEvent(t.db, event('o1'), 1_000);
      const deliveryId = stored?.eventId ?? '';
      const attempt = (id: string, ok: boolean) => ({
        id,
        deliveryId,
        trigger: 'schedule' as const,
        status: ok ? 200 : 503,
        latencyMs: 5,
        error: ok ? null : 'HTTP 503',
        excerpt: null,
        outcome: ok ? ('succeeded' as const) : ('pending' as const),
        scheduleStep: ok ? 0 : 1,
        nextAttemptAt: ok ? null : 2_000,
      });
      await recordAttempts(t.db, 'b1', [attempt('a1', true)], 1_100);
      await recordAttempts(t.db, 'b1', [attempt('a2', false)], 1_200);
      const row = await t.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
      expect([row.status, row.attempts, Number(row.delivered_at)]).toEqual(['succeeded', 1, 1_100]);
      const attempts = await t.db.selectFrom('webhook_attempts').select(['id', 'status']).orderBy('id').execute();
      expect(attempts).toEqual([
        { id: 'a1', status: 200 },
        { id: 'a2', status: 503 },
      ]);
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
