import { expect, it } from 'bun:test';
import { requireEditableBusiness } from '../../areas/business-settings/service.ts';
import { describeApi } from '../../testing/api.ts';
import { asSupport, seedBusiness, withTestAuth } from '../../testing/hub.ts';
import { recordEvent } from './events.ts';

/*
 * Recording an event locks the business's integration client row until commit (its sequence), and its
 * dispatch job's row refers to the business (a key share lock on the business's row). Staff changing
 * the client lock the business, then the client's row: every transaction must take the two in that
 * order, or PostgreSQL finds a deadlock and fails one of them.
 */
describeApi(
  'integration events: lock order',
  (t) => {
    it('never deadlocks with a staff change of the client: the business’s row before the client’s, in both', async () => {
      await seedBusiness(t.db);
      const saved = await t.call(
        'integration',
        'createOrUpdateIntegrationClient',
        {
          businessId: 'b1',
          name: 'Example PMR',
          contactEmail: 'support@pmr.example',
          suppressPatientMessages: false,
          webhookUrl: 'https://pmr.example/hooks',
          rateLimit: 1200,
        },
        asSupport,
      );
      const clientId = saved.body.client.id as string;
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
        await tx.updateTable('integration_clients').set({ updated: 5_000 }).where('id', '=', clientId).execute();
      });
      await hasLock;
      // Meanwhile a flow records an event (and queues the dispatch job, whose row refers to the business).
      const flow = t.db
        .transaction()
        .execute((tx) =>
          recordEvent(tx, { businessId: 'b1', type: 'order.created', orderingKey: 'o1', data: { id: 'o1' } }, 1_000),
        );
      await Bun.sleep(300);
      release();
      const [staffDone, flowDone] = await Promise.allSettled([staff, flow]);
      expect(staffDone.status).toBe('fulfilled');
      expect(flowDone).toMatchObject({ status: 'fulfilled', value: { sequence: 1, delivered: true } });
    });
  },
  withTestAuth,
);
