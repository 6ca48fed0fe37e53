import { expect, it } from 'bun:test';
import { describeApi } from '../testing/api.ts';
import { seedBusiness, withTestAuth } from '../testing/hub.ts';
import { type OutboxMessage, queueMessages } from './index.ts';

describeApi(
  'the outbox',
  (t) => {
    const sms = (dedupeKey?: string): OutboxMessage => ({
      businessId: 'b1',
      message: { channel: 'sms', recipient: '+447700900123', templateKey: 'test', body: 'Hello' },
      runAfter: 5_000,
      ...(dedupeKey ? { dedupeKey } : {}),
    });
    const queued = () => t.db.selectFrom('message_outbox').selectAll().execute();

    it('stores a job with the change that caused it, and nothing when that change rolls back', async () => {
      await seedBusiness(t.db);
      await t.db.transaction().execute(async (tx) => {
        await queueMessages(tx, sms(), 1_000);
      });
      await expect(
        t.db.transaction().execute(async (tx) => {
          await queueMessages(tx, sms(), 1_000);
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      const rows = await queued();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        business_id: 'b1',
        channel: 'sms',
        recipient: '+447700900123',
        status: 'pending',
        next_attempt_at: 5_000,
        created: 1_000,
      });
    });

    it('stores a job once per dedupe key, and jobs without a key every time', async () => {
      await seedBusiness(t.db);
      expect(await queueMessages(t.db, [sms('k1'), sms('k1'), sms(), sms()], 1_000)).toEqual({ enqueued: 3 });
      expect(await queueMessages(t.db, sms('k1'), 1_000)).toEqual({ enqueued: 0 });
      expect(await queued()).toHaveLength(3);
    });
  },
  withTestAuth,
);
